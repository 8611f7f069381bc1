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
        // Letters per language, indexed like `detectable`: a fixed array
        // rather than a dictionary keyed by String, which hashed every letter.
        var counts = [Int](repeating: 0, count: detectable.count)
        var letters = 0
        var i = 0
        while i < text.count, letters < detectionSample {
            let c = CharacterClass.scalar(at: i, in: text)
            i += c >= 0x10000 ? 2 : 1
            guard let language = scriptLanguage(of: c) else { continue }
            letters += 1
            counts[language.rawValue] += 1
        }
        if counts[Detectable.ja.rawValue] > 0 { return Language("ja") }
        // The most letters; a tie goes to the code first in alphabetical order.
        var best: Int?
        for index in counts.indices where counts[index] > 0 {
            if let leader = best, counts[leader] >= counts[index] { continue }
            best = index
        }
        return best.map { Language(detectable[$0]) } ?? .undetermined
    }

    /// The languages ``detect(in:)`` can name, in alphabetical order of
    /// their codes (`detectable`), which breaks ties.
    private enum Detectable: Int {
        case ar, el, en, he, hi, ja, ko, ru, th, zh
    }

    private static let detectable = ["ar", "el", "en", "he", "hi", "ja", "ko", "ru", "th", "zh"]

    private static func scriptLanguage(of c: UInt32) -> Detectable? {
        if c < 0x80 { return CharacterClass.isLetter(c) ? .en : nil }
        // The two largest blocks whose script is known without asking ICU.
        if c >= 0xAC00 && c <= 0xD7A3 { return .ko }     // Hangul syllables
        if c >= 0x4E00 && c <= 0x9FFF { return .zh }     // CJK Unified Ideographs (Han)
        switch lc_script(c) {
        case 25: return .en         // Latin
        case 18: return .ko         // Hangul
        case 20, 22: return .ja     // Hiragana, Katakana
        case 17: return .zh         // Han
        case 8: return .ru          // Cyrillic
        case 14: return .el         // Greek
        case 2: return .ar          // Arabic
        case 19: return .he         // Hebrew
        case 10: return .hi         // Devanagari
        case 38: return .th         // Thai
        default: return nil
        }
    }
}
