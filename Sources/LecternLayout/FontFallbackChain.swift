// FontFallbackChain.swift: fontconfig's ordered candidates for one spec, with per-character coverage.
import CHarfBuzz

/// The fonts fontconfig proposes for one `FontSpec`, best first (`FcFontSort`),
/// with their coverage charsets. Fonts are loaded only when first chosen.
///
/// The candidate list and charsets are immutable once built and may be read
/// from any thread; `loaded` is guarded by the `FontCatalog`'s lock.
final class FontFallbackChain {
    struct Candidate {
        let path: String
        let faceIndex: Int
        let family: String
        let charset: OpaquePointer?
    }

    let candidates: [Candidate]
    private let fontSet: UnsafeMutablePointer<FcFontSet>
    /// Candidates already loaded, by index. Guarded by the catalog's lock.
    var loaded: [Int: Font] = [:]

    /// Sorts fonts for `pattern` (which this call consumes); nil when fontconfig finds none.
    init?(config: OpaquePointer, pattern: OpaquePointer) {
        defer { FcPatternDestroy(pattern) }
        _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, pattern, FcTrue, nil, &result) else { return nil }
        var found: [Candidate] = []
        let count = Int(set.pointee.nfont)
        for i in 0..<count {
            guard let fonts = set.pointee.fonts, let font = fonts[i] else { continue }
            guard let path = Self.string(font, "file") else { continue }
            var index: Int32 = 0
            if FcPatternGetInteger(font, "index", 0, &index) != FcResultMatch { index = 0 }
            var charset: OpaquePointer?
            if FcPatternGetCharSet(font, "charset", 0, &charset) != FcResultMatch { charset = nil }
            found.append(Candidate(
                path: path, faceIndex: Int(index),
                family: Self.string(font, "family") ?? "", charset: charset))
        }
        guard !found.isEmpty else {
            FcFontSetDestroy(set)
            return nil
        }
        fontSet = set
        candidates = found
    }

    deinit {
        FcFontSetDestroy(fontSet)
    }

    /// All family names (every language's spelling) of candidate `index`.
    func familyNames(of index: Int) -> [String] {
        guard index < Int(fontSet.pointee.nfont), let fonts = fontSet.pointee.fonts,
              let font = fonts[index] else { return [] }
        var names: [String] = []
        var n: Int32 = 0
        while let name = Self.string(font, "family", n) {
            names.append(name)
            n += 1
        }
        return names
    }

    /// Index of the first candidate whose charset covers `scalar`, or nil.
    /// Reads only immutable data (the candidates and fontconfig's charsets),
    /// so it needs no lock.
    /// - Complexity: O(candidates) (callers cache the answer).
    func candidateIndex(covering scalar: UInt32) -> Int? {
        candidates.firstIndex { candidate in
            candidate.charset.map { FcCharSetHasChar($0, scalar) != 0 } ?? false
        }
    }

    private static func string(_ pattern: OpaquePointer, _ object: String, _ n: Int32 = 0) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value else {
            return nil
        }
        return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
    }
}
