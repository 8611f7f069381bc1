// NonbreakingPrefixes.swift: words that a period after them does not end a
// sentence: the Moses lists (read at run time) plus Lectern's supplements.
import Foundation

/// A set of non-breaking prefixes in the Moses format: one word per line
/// (case-sensitive, without its period), `#` comments, and a
/// `#NUMERIC_ONLY#` marker for words that hold only before a number
/// ("No. 5", "pp. 12"). Lectern's supplements add `#MAY_END#` for
/// abbreviations that often close a sentence ("etc.", "и т. д."): these hold
/// only before a lower-case word.
///
/// Moses' lists for 22 languages come with Debian's `liblingua-sentence-perl`
/// in ``defaultDirectory``; they are read when a language is first used.
/// Entries spanning words ("т. е") are stored without spaces ("т.е").
struct NonbreakingPrefixes: Sendable {
    /// Where Debian installs the Moses lists.
    static let defaultDirectory = "/usr/share/perl5/auto/share/dist/Lingua-Sentence"

    /// Entries by FNV-1a hash of their UTF-16 units, so that a word in the
    /// text is looked up without building a String (matching is exact, by
    /// code unit).
    private var entries: [UInt64: [Entry]] = [:]

    private struct Entry: Sendable {
        let units: [UInt16]
        var kind: Kind
    }

    /// What a prefix allows after its period.
    enum Kind: Int, Sendable {
        /// The period never ends a sentence ("Mr.").
        case always
        /// The period does not end a sentence before a number ("No. 5").
        case beforeNumbersOnly
        /// The period ends a sentence unless a lower-case word follows ("etc.").
        /// Takes precedence when a word is listed twice.
        case mayEnd
    }

    typealias Units = Slice<UnsafeBufferPointer<UInt16>>

    init() {}

    /// Parses list text in the Moses format.
    init(listText: String) {
        for line in listText.split(whereSeparator: \.isNewline) {
            add(line: String(line))
        }
    }

    /// Reads `nonbreaking_prefix.<code>` from `directory`, if present, and
    /// merges Lectern's supplement for the language.
    static func load(language: Language, directory: String = defaultDirectory) -> NonbreakingPrefixes {
        let path = directory + "/nonbreaking_prefix." + language.code
        var prefixes = NonbreakingPrefixes()
        if let data = FileManager.default.contents(atPath: path) {
            prefixes = NonbreakingPrefixes(listText: String(decoding: data, as: UTF8.self))
        }
        for line in PrefixSupplements.lines(for: language) { prefixes.add(line: line) }
        return prefixes
    }

    private mutating func add(line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return }
        let numericOnly = trimmed.contains("#NUMERIC_ONLY#")
        let final = trimmed.contains("#MAY_END#")
        let word = trimmed.components(separatedBy: "#")[0]
            .replacingOccurrences(of: " ", with: "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        guard !word.isEmpty else { return }
        let kind: Kind = final ? .mayEnd : numericOnly ? .beforeNumbersOnly : .always
        let units = Array(word.utf16)
        let hash = Self.hash(units[...], nil)
        if let index = entries[hash]?.firstIndex(where: { $0.units == units }) {
            if entries[hash]?[index].kind == .beforeNumbersOnly || kind == .mayEnd {
                entries[hash]?[index].kind = kind
            }
        } else {
            entries[hash, default: []].append(Entry(units: units, kind: kind))
        }
    }

    /// The kind of a word (without its final period), optionally made of two
    /// pieces ("т." followed by "д"), or nil if it is not a prefix.
    /// - Complexity: O(length), without allocating.
    func kind(of first: Units, _ second: Units? = nil) -> Kind? {
        // Languages without a list (Korean, Japanese, Chinese) ask at every
        // period: answer without hashing.
        guard !entries.isEmpty, let bucket = entries[Self.hash(first, second)] else { return nil }
        let length = first.count + (second?.count ?? 0)
        for entry in bucket where entry.units.count == length {
            if entry.units[..<first.count].elementsEqual(first),
               entry.units[first.count...].elementsEqual(second ?? first[first.startIndex..<first.startIndex]) {
                return entry.kind
            }
        }
        return nil
    }

    /// The kind of a word given as a String (for tests and tools).
    func kind(of word: String) -> Kind? {
        let units = Array(word.utf16)
        return units.withUnsafeBufferPointer { kind(of: $0[...]) }
    }

    private static func hash<C: Collection>(_ first: C, _ second: C?) -> UInt64 where C.Element == UInt16 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for unit in first { hash = (hash ^ UInt64(unit)) &* 0x100_0000_01b3 }
        if let second { for unit in second { hash = (hash ^ UInt64(unit)) &* 0x100_0000_01b3 } }
        return hash
    }
}
