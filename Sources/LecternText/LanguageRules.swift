// LanguageRules.swift: the per-language switches of the reader rules, built
// once per language and cached.
import Foundation

/// The reader tailoring for one language: its abbreviations and which of the
/// language-specific rules apply.
///
/// Immutable, and a class so that a paragraph scan holds one reference
/// rather than a copy of every field: the scan is copied whenever it calls a
/// helper of its own, and a smaller copy is inlined rather than a `memcpy`.
final class LanguageRules: Sendable {
    let language: Language
    let prefixes: NonbreakingPrefixes
    /// English: an acronym ("U.S.") followed by a capitalised word ends the
    /// sentence only when that word commonly starts sentences (pySBD's list).
    let sentenceStarters: Set<String>
    /// English: "I." after a lower-case word is the pronoun, not an initial.
    let pronounI: Bool
    /// Korean, Japanese, Chinese: quotations and brackets closed later in
    /// the paragraph never end the surrounding sentence.
    let quotationsAreEmbedded: Bool
    /// Languages written in two cases: a lower-case word after a terminator
    /// continues the sentence. Off for Korean, Japanese, Chinese, where a
    /// lower-case Latin word is simply the next sentence's first word.
    let lowercaseContinues: Bool
    /// German: "am 3. Oktober" (one- or two-digit ordinals).
    let numericOrdinals: Bool
    /// Korean: endings like -다 and -요 end a sentence without punctuation.
    let koreanEndings: Bool

    private init(language: Language) {
        self.language = language
        prefixes = NonbreakingPrefixes.load(language: language)
        let code = language.code
        sentenceStarters = code == "en" ? Self.englishSentenceStarters : []
        pronounI = code == "en"
        quotationsAreEmbedded = code == "ko" || code == "ja" || code == "zh"
        lowercaseContinues = !quotationsAreEmbedded
        numericOrdinals = code == "de" || code == "da" || code == "fi" || code == "cs" || code == "sk"
            || code == "sl" || code == "hu" || code == "is" || code == "lv" || code == "pl"
        koreanEndings = code == "ko"
    }

    /// pySBD's sentence starters, plus common pronouns and connectives.
    private static let englishSentenceStarters: Set<String> = [
        "A", "Being", "Did", "For", "He", "How", "However", "I", "In", "It", "Millions", "More", "She",
        "That", "The", "There", "They", "We", "What", "When", "Where", "Who", "Why", "This", "You",
        "Then", "But", "So", "If", "After", "Our", "My", "His", "Her", "Its", "Their", "These", "Those",
    ]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [Language: LanguageRules] = [:]

    /// Languages with rules of their own: those with a Moses list, and those
    /// Lectern tailors. Any other language gets the generic rules ("und"), so
    /// the cache stays bounded whatever tags clients send.
    private static let tailored: Set<String> = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: NonbreakingPrefixes.defaultDirectory)) ?? []
        let moses = files.compactMap { $0.hasPrefix("nonbreaking_prefix.") ? String($0.dropFirst(19)) : nil }
        return Set(moses).union(["en", "ru", "de", "fr", "es", "ko", "ja", "zh"])
    }()

    /// Whether the language of this primary subtag has rules of its own.
    static func hasOwnRules(_ code: String) -> Bool { tailored.contains(code) }

    /// The rules for `language`, loading its prefix list on first use.
    /// Thread-safe.
    static func rules(for language: Language) -> LanguageRules {
        // By primary subtag: pt-BR and pt-PT share pt's rules (and one cache entry).
        let language = tailored.contains(language.code) ? Language(language.code) : .undetermined
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[language] { return cached }
        let rules = LanguageRules(language: language)
        cache[language] = rules
        return rules
    }
}
