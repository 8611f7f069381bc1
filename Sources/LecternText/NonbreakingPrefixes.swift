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

    private var always: Set<String> = []
    private var beforeNumbers: Set<String> = []
    private var mayEnd: Set<String> = []

    /// What a prefix allows after its period.
    enum Kind {
        /// The period never ends a sentence ("Mr.").
        case always
        /// The period does not end a sentence before a number ("No. 5").
        case beforeNumbersOnly
        /// The period ends a sentence unless a lower-case word follows ("etc.").
        case mayEnd
    }

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
        if final { mayEnd.insert(word) } else if numericOnly { beforeNumbers.insert(word) } else { always.insert(word) }
    }

    /// The kind of `word` (without its final period), or nil if not a prefix.
    func kind(of word: String) -> Kind? {
        if mayEnd.contains(word) { return .mayEnd }
        if always.contains(word) { return .always }
        if beforeNumbers.contains(word) { return .beforeNumbersOnly }
        return nil
    }
}
