// Language.swift: the language whose reading rules apply, given or detected.
import CICU

/// A language for sentence rules: a BCP 47 tag ("pt-BR", "zh-Hant-TW") and
/// its primary subtag, the lower-case ISO 639 code whose rules apply
/// ("pt", "zh").
///
/// A client's tag is checked by ``init(validating:)``: BCP 47 shape and a
/// primary subtag ICU knows. ``init(_:)`` reads any tag leniently (a
/// stored one, a benchmark's). Each paragraph's language is chosen from
/// its script and words, the tag being a hint (``ParagraphLanguages``).
public struct Language: Hashable, Sendable, CustomStringConvertible {
    /// The primary language subtag, lower-cased; "und" when unknown.
    public let code: String
    /// The whole tag in BCP 47's canonical case (`pt-BR`, `zh-Hant-TW`,
    /// `sr-Latn`), subtags joined with `-`; the ``code`` for a detected language.
    public let tag: String

    /// Reads any tag leniently: the primary subtag (up to the first `-`,
    /// `_` or `@`) lower-cased; empty input is "und". Nothing is checked.
    public init(_ tag: String) {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == "@" }).first
        code = primary.map { $0.lowercased() } ?? "und"
        let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        self.tag = subtags.isEmpty || tag.contains("@") ? code : Self.canonicalCase(subtags).joined(separator: "-")
    }

    /// The longest tag ``init(validating:)`` takes, in characters: what
    /// RFC 5646 § 4.4.1 asks every implementation to handle.
    public static let maximumTagLength = 35

    /// A tag a client sent, checked: BCP 47 shape (RFC 5646 § 2.1:
    /// `language[-extlang][-script][-region][-variant…][-extension…][-x-private]`,
    /// subtags of ASCII letters and digits; `_` is read as `-`, as ICU and
    /// Apple locale identifiers write it), at most ``maximumTagLength``
    /// characters, and a primary subtag of two or three letters that ICU
    /// knows (its ISO 639 list, ``knownLanguageCodes``). The tag is kept
    /// in canonical case (`PT-br` → `pt-BR`).
    ///
    /// - Throws: ``InvalidTag`` with a sentence saying what is wrong.
    /// - Complexity: O(n) in the tag's length.
    public init(validating tag: String) throws {
        let example = "a language code like en, ko, pt-BR or zh-Hant"
        guard !tag.isEmpty else { throw InvalidTag("lang is empty; give \(example)") }
        guard tag.utf8.count <= Self.maximumTagLength else {
            throw InvalidTag("lang is at most \(Self.maximumTagLength) characters (got \(tag.utf8.count))")
        }
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }.map(String.init)
        guard Self.isWellFormed(subtags) else {
            throw InvalidTag("'\(tag)' is not a BCP 47 language tag (language[-script][-region], \(example))")
        }
        let primary = subtags[0].lowercased()
        guard Self.knownLanguageCodes.contains(primary) else {
            throw InvalidTag("'\(primary)' is not a language code ICU knows (ISO 639: \(example))")
        }
        code = primary
        self.tag = Self.canonicalCase(subtags).joined(separator: "-")
    }

    /// Why a tag was refused (``init(validating:)``), as a sentence.
    public struct InvalidTag: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The ISO 639 codes ICU knows (`uloc_getISOLanguages`: every
    /// two-letter code, and the three-letter ones it has data or names
    /// for, `und` among them), read once.
    public static let knownLanguageCodes: Set<String> = {
        var codes: Set<String> = []
        guard var entry = lc_iso_languages() else { return codes }
        while let code = entry.pointee {
            codes.insert(String(cString: code))
            entry += 1
        }
        return codes
    }()

    /// The reader rules that apply to this language: its own ``code``
    /// when Lectern has rules or an abbreviation list for it, else
    /// `generic` (the rules every language gets).
    public var rules: String { LanguageRules.hasOwnRules(code) ? code : "generic" }

    /// Whether `subtags` (split at `-`) make a BCP 47 language tag: the
    /// order of RFC 5646 § 2.1, each subtag of its length and kind.
    private static func isWellFormed(_ subtags: [String]) -> Bool {
        func isAlpha(_ s: UInt8) -> Bool { (s | 0x20) >= 0x61 && (s | 0x20) <= 0x7A }
        func isDigit(_ s: UInt8) -> Bool { s >= 0x30 && s <= 0x39 }
        guard let primary = subtags.first?.utf8, (2...3).contains(primary.count), primary.allSatisfy(isAlpha) else { return false }
        // 0: extlang, 1: script, 2: region, 3: variants, 4: extensions.
        var stage = 0
        var extlangs = 0
        var index = 1
        while index < subtags.count {
            let subtag = subtags[index].utf8
            guard (1...8).contains(subtag.count), subtag.allSatisfy({ isAlpha($0) || isDigit($0) }) else { return false }
            let letters = subtag.allSatisfy(isAlpha)
            let digits = subtag.allSatisfy(isDigit)
            if subtag.count == 1 {
                // A singleton: an extension (2 to 8 characters each) or private use (1 to 8), to the end.
                let isPrivate = subtag.first.map { $0 | 0x20 } == UInt8(ascii: "x")
                let rest = subtags[(index + 1)...]
                guard !rest.isEmpty else { return false }
                func isSubtag(_ text: String, _ lengths: ClosedRange<Int>) -> Bool {
                    lengths.contains(text.utf8.count) && text.utf8.allSatisfy { isAlpha($0) || isDigit($0) }
                }
                if isPrivate { return rest.allSatisfy { isSubtag($0, 1...8) } }
                var next = index + 1
                while next < subtags.count, subtags[next].utf8.count > 1 {
                    guard isSubtag(subtags[next], 2...8) else { return false }
                    next += 1
                }
                guard next > index + 1 else { return false }
                index = next
                stage = 4
                continue
            }
            guard stage < 4 else { return false }
            if stage == 0, letters, subtag.count == 3, extlangs < 3 {
                extlangs += 1
            } else if stage <= 1, letters, subtag.count == 4 {
                stage = 2
            } else if stage <= 2, (letters && subtag.count == 2) || (digits && subtag.count == 3) {
                stage = 3
            } else if subtag.count >= 5 || (subtag.count == 4 && subtag.first.map(isDigit) == true) {
                stage = 3
            } else {
                return false
            }
            index += 1
        }
        return true
    }

    /// BCP 47's canonical case (RFC 5646 § 2.1.1): lower case, a script
    /// title case (`Hant`), a region upper case (`BR`), everything after a
    /// singleton lower case.
    private static func canonicalCase(_ subtags: [String]) -> [String] {
        var afterSingleton = false
        return subtags.enumerated().map { index, subtag in
            if subtag.utf8.count == 1 { afterSingleton = true }
            guard index > 0, !afterSingleton else { return subtag.lowercased() }
            switch subtag.utf8.count {
            case 4 where subtag.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }):
                return subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            case 2: return subtag.uppercased()
            default: return subtag.lowercased()
            }
        }
    }

    public var description: String { code }

    public static let english = Language("en")
    public static let undetermined = Language("und")

    /// The language of a document without a hint: the language of the
    /// most text among its paragraphs, each of which is detected from its
    /// script and, for Latin script, its commonest words
    /// (``LatinLanguageProfiles``: en, de, fr, es, pt, it, nl; en when they
    /// do not decide); und when no paragraph has letters. What
    /// ``SentenceTable/language`` is without a hint; see
    /// ``ParagraphLanguages`` for the rules.
    /// - Complexity: O(p) for p paragraphs, each read for at most
    ///   ``ParagraphLanguages/letterSample`` letters.
    public static func detect(in document: DocumentText) -> Language {
        ParagraphLanguages(document: document, hint: nil).document
    }
}
