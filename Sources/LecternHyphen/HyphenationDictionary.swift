// HyphenationDictionary.swift: where a word may be hyphenated, from the
// TeX patterns of Debian's hyphen-* dictionaries, through libhyphen.

import Foundation

/// One language's hyphenation patterns (`/usr/share/hyphen/hyph_*.dic`),
/// loaded once and shared: a loaded dictionary is only read, so any
/// thread may hyphenate with it at once.
///
/// ```swift
/// let english = HyphenationDictionary.forLanguage("en")
/// english?.hyphenationPoints(in: "hyphenation")   // [2, 6]: hy-phen-ation
/// ```
public final class HyphenationDictionary: @unchecked Sendable {
    /// The dictionary file's path.
    public let path: String
    /// libhyphen's dictionary: read-only from `init` to `deinit`.
    let dictionary: OpaquePointer

    /// Where Debian installs the dictionaries.
    public static let directory = "/usr/share/hyphen"

    init(path: String, dictionary: OpaquePointer) {
        self.path = path
        self.dictionary = dictionary
    }

    deinit { freeDictionary() }

    /// The region whose patterns stand for a bare language tag.
    static let defaultRegions = ["en": "US", "de": "DE", "fr": "FR", "es": "ES", "ru": "RU", "it": "IT", "pt": "PT"]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: [String: HyphenationDictionary?] = [:]

    /// The dictionary for a BCP 47 tag (`en`, `pt-BR`, `de-CH`), or nil
    /// when none is installed: `hyph_<ll>_<CC>.dic` for the tag's region
    /// (or the language's usual one), else `hyph_<ll>.dic`. Loaded once
    /// per file.
    public static func forLanguage(_ tag: String, directory: String = directory) -> HyphenationDictionary? {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let language = parts.first?.lowercased(), !language.isEmpty else { return nil }
        let region = parts.dropFirst().first { $0.count == 2 }?.uppercased() ?? defaultRegions[language]
        let names = (region.map { ["hyph_\(language)_\($0).dic"] } ?? []) + ["hyph_\(language).dic"]
        guard let path = names.map({ directory + "/" + $0 }).first(where: { FileManager.default.isReadableFile(atPath: $0) })
        else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let known = loaded[path] { return known }
        let dictionary = HyphenationDictionary(path: path)
        loaded[path] = dictionary
        return dictionary
    }

    /// The UTF-16 offsets in `word` after which it may be broken with a
    /// hyphen, at least `leftMinimum` characters from its start and
    /// `rightMinimum` from its end (TeX's lefthyphenmin and
    /// righthyphenmin, in Unicode scalars), in increasing order. Only
    /// standard hyphenation: a break that changes the spelling (the
    /// patterns' non-standard rules, as German's old `ck` → `k-k`) is
    /// left out. A word with anything but letters is not hyphenated.
    public func hyphenationPoints(in word: String, leftMinimum: Int = 2, rightMinimum: Int = 3) -> [Int] {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count >= leftMinimum + rightMinimum, scalars.count <= Self.longestWord,
              scalars.allSatisfy({ $0.properties.isAlphabetic })
        else { return [] }
        // The patterns are lower case; a letter whose lower case is not one
        // scalar (İ) leaves the word alone rather than misplace a break.
        var lower: [Unicode.Scalar] = []
        lower.reserveCapacity(scalars.count)
        for scalar in scalars {
            let mapped = scalar.properties.lowercaseMapping.unicodeScalars
            guard mapped.count == 1, let first = mapped.first else { return [] }
            lower.append(first)
        }
        let breaks = hyphenate(lower, leftMinimum: max(1, leftMinimum), rightMinimum: max(1, rightMinimum))
        // Scalar positions to UTF-16 offsets of the word as given.
        var offsets: [Int] = []
        var utf16 = 0
        for (index, scalar) in scalars.enumerated() {
            utf16 += scalar.utf16.count
            if breaks.contains(index + 1) { offsets.append(utf16) }
        }
        return offsets
    }

    /// Longer words are not hyphenated (no language's word is this long;
    /// it bounds the work per word).
    public static let longestWord = 100
}
