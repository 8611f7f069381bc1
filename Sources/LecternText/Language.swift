// Language.swift: the language whose reading rules apply, given or detected.
import CICU

/// A language for sentence rules, as a lower-case ISO 639 code ("en", "ko").
///
/// Built from any BCP 47 tag ("en-US", "zh_Hant" → "en", "zh"). When a
/// document comes without one, ``detect(in:)`` guesses from the script.
public struct Language: Hashable, Sendable, CustomStringConvertible {
    /// The primary language subtag, lower-cased; "und" when unknown.
    public let code: String

    /// Parses the primary subtag of a BCP 47 tag; empty input is "und".
    public init(_ tag: String) {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "@" }).first
        code = primary.map { $0.lowercased() } ?? "und"
    }

    public var description: String { code }

    public static let english = Language("en")
    public static let undetermined = Language("und")

    /// Guesses the language from the script of the first letters of the
    /// text: Hangul → ko, any kana → ja, Han → zh, Cyrillic → ru, Greek → el,
    /// Arabic → ar, Hebrew → he, Devanagari → hi, Thai → th, Latin → en,
    /// nothing → und. Latin-script languages cannot be told apart by script,
    /// so pass the language when it is known.
    /// - Complexity: O(1): reads at most ``detectionSample`` letters.
    public static func detect(in document: DocumentText) -> Language {
        document.utf16.withUnsafeBufferPointer { detect(in: $0) }
    }

    /// How many letters ``detect(in:)`` examines.
    public static let detectionSample = 2048

    static func detect(in text: UnsafeBufferPointer<UInt16>) -> Language {
        var counts: [String: Int] = [:]
        var letters = 0
        var i = 0
        while i < text.count, letters < detectionSample {
            let c = CharacterClass.scalar(at: i, in: text)
            i += c >= 0x10000 ? 2 : 1
            guard let code = scriptLanguage(of: c) else { continue }
            letters += 1
            counts[code, default: 0] += 1
        }
        if counts["ja", default: 0] > 0 { return Language("ja") }
        guard let best = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) else {
            return .undetermined
        }
        return Language(best.key)
    }

    private static func scriptLanguage(of c: UInt32) -> String? {
        if c < 0x80 { return CharacterClass.isLetter(c) ? "en" : nil }
        switch lc_script(c) {
        case 25: return "en"        // Latin
        case 18: return "ko"        // Hangul
        case 20, 22: return "ja"    // Hiragana, Katakana
        case 17: return "zh"        // Han
        case 8: return "ru"         // Cyrillic
        case 14: return "el"        // Greek
        case 2: return "ar"         // Arabic
        case 19: return "he"        // Hebrew
        case 10: return "hi"        // Devanagari
        case 38: return "th"        // Thai
        default: return nil
        }
    }
}
