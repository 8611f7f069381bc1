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
    /// For each BMP page (256 scalars, fontconfig's charset leaf), the
    /// candidates, in order, whose charset has any scalar in it: compressed
    /// rows, page `p`'s list is `pageCandidates[pageStarts[p]..<pageStarts[p + 1]]`.
    /// A candidate absent from a page's list covers nothing in that page,
    /// so fallback skips it without asking fontconfig.
    private let pageStarts: [Int32]
    private let pageCandidates: [Int32]
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
        (pageStarts, pageCandidates) = Self.indexPages(found)
    }

    /// Builds `pageStarts` and `pageCandidates` from the charsets' leaves.
    /// - Complexity: O(total charset leaves), once per chain.
    private static func indexPages(_ candidates: [Candidate]) -> ([Int32], [Int32]) {
        var lists = [[Int32]](repeating: [], count: 256)
        var map = [FcChar32](repeating: 0, count: 8) // FC_CHARSET_MAP_SIZE
        for (index, candidate) in candidates.enumerated() {
            guard let charset = candidate.charset else { continue }
            var next: FcChar32 = 0
            var base = map.withUnsafeMutableBufferPointer { FcCharSetFirstPage(charset, $0.baseAddress, &next) }
            while base != FcChar32.max, base <= 0xFFFF { // FC_CHARSET_DONE
                if map.contains(where: { $0 != 0 }) { lists[Int(base >> 8)].append(Int32(index)) }
                base = map.withUnsafeMutableBufferPointer { FcCharSetNextPage(charset, $0.baseAddress, &next) }
            }
        }
        var starts: [Int32] = [0]
        starts.reserveCapacity(257)
        for list in lists { starts.append((starts.last ?? 0) + Int32(list.count)) }
        return (starts, lists.flatMap { $0 })
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
    /// In the BMP, only candidates with a leaf in the scalar's page are asked.
    /// Reads only immutable data (the candidates and fontconfig's charsets),
    /// so it needs no lock.
    /// - Complexity: O(candidates) (callers cache the answer).
    func candidateIndex(covering scalar: UInt32) -> Int? {
        guard scalar <= 0xFFFF else {
            return candidates.firstIndex { candidate in
                candidate.charset.map { FcCharSetHasChar($0, scalar) != 0 } ?? false
            }
        }
        let page = Int(scalar >> 8)
        for slot in Int(pageStarts[page])..<Int(pageStarts[page + 1]) {
            let index = Int(pageCandidates[slot])
            if let charset = candidates[index].charset, FcCharSetHasChar(charset, scalar) != 0 { return index }
        }
        return nil
    }

    private static func string(_ pattern: OpaquePointer, _ object: String, _ n: Int32 = 0) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value else {
            return nil
        }
        return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
    }
}
