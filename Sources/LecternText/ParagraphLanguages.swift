// ParagraphLanguages.swift: the language of each paragraph, chosen from its
// own letters, the client's hint and the rest of the document.
import CICU

/// The language of each paragraph of a document, and the document's.
///
/// A reader's documents mix languages by paragraph (a list of Japanese
/// words with Korean notes, a Korean blog quoting English), so each
/// paragraph gets the rules of its own language. The hint (PUT's `lang=`)
/// decides only what the letters cannot:
///
/// 1. **Script.** The paragraph's script decides when it can: Hangul → ko,
///    kana → ja, Cyrillic → ru, Greek → el, Arabic → ar, Hebrew → he,
///    Devanagari → hi, Thai → th. When the hint is a language written in
///    that script (`uk` or `bg` for Cyrillic, `fa` for Arabic, `ko-KP` for
///    Hangul), the hint wins: the script cannot tell those apart. The
///    script is the one with the most letters in the sample, where a Han,
///    kana or Hangul letter counts ``cjkLetterWeight`` times (one carries
///    about what a short Latin word does), so a Japanese sentence with an
///    English name is Japanese and an English one quoting a Japanese word
///    is English; among CJK letters, kana makes it ja unless Hangul letters
///    outnumber the kana (a Korean paragraph quoting a Japanese name is
///    ko), and Hangul makes it ko.
/// 2. **Han only** (no kana, no Hangul): the hint when it is written with
///    Han (ja, zh, zh-Hant, ko for hanja, yue…); else the document's own CJK
///    language, the one of ja (kana paragraphs), ko (Hangul paragraphs) and
///    zh (Han-only paragraphs) with the most text, so a Japanese document's
///    kanji-only heading is ja; that is zh when the document has no kana
///    and no Hangul.
/// 3. **Latin script**: the hint when it is a Latin-script language; else
///    the paragraph's own stop-word profile (``LatinLanguageProfiles``)
///    when it decides, from at least ``LatinLanguageProfiles/minimumWords``
///    words; else the same profile over all the document's Latin-script
///    paragraphs; else en.
/// 4. **Another script** (Georgian, Armenian, Tamil…): the hint when it is
///    written in that script, else und (the generic rules).
/// 5. **No letters** (numbers, emoji, punctuation, blank): the document's
///    language.
///
/// The document's language is the hint's tag when one is given (even if
/// no paragraph has it: `lang=ko` on English text keeps `ko`), else the
/// language with the most text (UTF-16 units of paragraph content; a tie
/// goes to the one that appears first), so a mostly-Korean document with
/// an English quote is ko; und when no paragraph has letters.
///
/// A hint's script comes from its own script subtag or CLDR's likely
/// subtags (`sr-Latn` is Latin, `sr` Cyrillic, `ja` Japanese, `zh-TW` Han);
/// `und` is written in no script and decides no paragraph.
///
/// Stored compactly: the distinct languages (``distinct``, in order of
/// first appearance) and one byte per paragraph indexing them.
///
/// - Complexity: O(p + the sample) for p paragraphs: each paragraph reads
///   at most ``letterSample`` letters and ``unitSample`` code units, so
///   a long paragraph costs O(1) and many short ones cost their length.
public struct ParagraphLanguages: Sendable, Equatable {
    /// The document's language: the hint, else the language of the most text.
    public let document: Language
    /// The paragraphs' languages, each once, in order of first appearance;
    /// for a text without paragraphs, just ``document``. Never empty.
    public let distinct: [Language]
    /// The index in ``distinct`` of each paragraph's language.
    let indexOfParagraph: [UInt8]
    /// The UTF-16 units detection read, over all paragraphs: the work it
    /// did, at most ``unitSample`` per paragraph whatever their length,
    /// twice that for a Latin-script paragraph whose words are scored.
    public let unitsRead: Int

    /// The most letters read from one paragraph.
    public static let letterSample = 128
    /// When a paragraph's first 32 letters are all of one script other
    /// than Han, that script is the paragraph's and its script count stops
    /// there: most paragraphs are in one script, and the rest of the sample
    /// would only confirm it. (Han goes on: kana or Hangul later decides ja
    /// or ko.) So a paragraph that starts with a whole clause in one script
    /// and goes on in another is read by its start.
    public static let earlyLetters = 32
    /// The most UTF-16 units read from one paragraph: a paragraph whose
    /// first 512 units hold fewer than ``letterSample`` letters is mostly
    /// numbers, symbols or space, and the letters found there decide.
    public static let unitSample = 512
    /// How many letters a Han, kana or Hangul letter counts as when scripts
    /// are compared: such a letter is about a syllable or a word (English
    /// words average some 4.7 letters, Chinese words 1.5 characters).
    public static let cjkLetterWeight: Int32 = 3

    /// The number of paragraphs.
    public var count: Int { indexOfParagraph.count }

    /// The language of paragraph `index` (an index of `DocumentText.paragraphs`).
    /// - Complexity: O(1).
    public func language(ofParagraph index: Int) -> Language {
        distinct[Int(indexOfParagraph[index])]
    }

    /// The index in ``distinct`` of paragraph `index`'s language.
    /// - Complexity: O(1).
    public func distinctIndex(ofParagraph index: Int) -> Int { Int(indexOfParagraph[index]) }

    /// Chooses the language of each paragraph of `document` (see the rules
    /// above); `hint` is the client's `lang=`, if any.
    public init(document: DocumentText, hint: Language?) {
        self = document.utf16.withUnsafeBufferPointer { text in
            Self(text: text, paragraphs: document.paragraphs, hint: hint)
        }
    }

    private init(document: Language, distinct: [Language], indexOfParagraph: [UInt8], unitsRead: Int) {
        self.document = document
        self.distinct = distinct
        self.indexOfParagraph = indexOfParagraph
        self.unitsRead = unitsRead
    }

    // MARK: - Choosing

    /// Candidate languages by key: 0 is the hint (und without one), then
    /// the languages detection can name.
    private static let fixedCodes = ["und", "en", "de", "fr", "es", "pt", "it", "nl",
                                     "ru", "el", "ar", "he", "hi", "th", "ja", "ko", "zh"]
    private static let fixedLanguages = fixedCodes.map(Language.init)
    private static func key(_ code: String) -> UInt8 {
        UInt8((fixedCodes.firstIndex(of: code) ?? 0) + 1)
    }
    private static let hintKey: UInt8 = 0
    private static let undeterminedKey = key("und")
    private static let englishKey = key("en")
    /// The key of `LatinLanguageProfiles.codes[0]`; the others follow it.
    private static let firstLatinKey = key(LatinLanguageProfiles.codes[0])
    private static let japaneseKey = key("ja"), koreanKey = key("ko"), chineseKey = key("zh")
    /// Paragraphs not decided in the first pass.
    private static let pendingLatin: UInt8 = 0xFD, pendingHan: UInt8 = 0xFE, noLetters: UInt8 = 0xFF

    private init(text: UnsafeBufferPointer<UInt16>, paragraphs: [Paragraph], hint: Language?) {
        let covered = hint.map(HintScripts.init) ?? HintScripts.none
        let candidates = [hint ?? .undetermined] + Self.fixedLanguages
        // Stop words are needed only when a Latin-script hint does not decide.
        let scoring = !covered.contains(.latin)
        var keys = [UInt8](repeating: Self.noLetters, count: paragraphs.count)
        var documentScores = LatinLanguageProfiles.Scores()
        var documentWords = 0
        var cjkText = (ja: 0, ko: 0, zh: 0)
        var otherScriptIsHint: [Int32: Bool] = [:]
        var unitsRead = 0

        // Pass 1: what each paragraph's own letters decide.
        for (index, paragraph) in paragraphs.enumerated() {
            let sample = ParagraphSample.read(text, paragraph.content, scoring: scoring)
            unitsRead += sample.unitsRead
            guard let system = sample.writingSystem else { continue }
            let length = paragraph.content.count
            let key: UInt8
            switch system {
            case .latin:
                documentScores &+= sample.scores
                documentWords += sample.words
                if covered.contains(.latin) {
                    key = Self.hintKey
                } else if let lane = LatinLanguageProfiles.decide(sample.scores, words: sample.words) {
                    key = Self.firstLatinKey + UInt8(lane)
                } else {
                    key = Self.pendingLatin
                }
            case .han:
                cjkText.zh += length
                key = covered.contains(.han) ? Self.hintKey : Self.pendingHan
            case .kana:
                cjkText.ja += length
                key = covered.contains(.kana) ? Self.hintKey : Self.japaneseKey
            case .hangul:
                cjkText.ko += length
                key = covered.contains(.hangul) ? Self.hintKey : Self.koreanKey
            case .other:
                let script = sample.otherScript
                let isHint = otherScriptIsHint[script] ?? {
                    let answer = covered.otherScript.map { $0 == HintScripts.code(ofICUScript: script) } ?? false
                    otherScriptIsHint[script] = answer
                    return answer
                }()
                key = isHint ? Self.hintKey : Self.undeterminedKey
            default:
                key = covered.contains(system) ? Self.hintKey : Self.defaultKeys[system.rawValue]
            }
            keys[index] = key
        }

        // Pass 2: paragraphs decided by the rest of the document, and the
        // text each language has.
        let documentLatin = LatinLanguageProfiles.decide(documentScores, words: documentWords)
            .map { Self.firstLatinKey + UInt8($0) } ?? Self.englishKey
        let documentCJK = cjkText.ja >= cjkText.ko && cjkText.ja >= cjkText.zh && cjkText.ja > 0 ? Self.japaneseKey
            : cjkText.ko >= cjkText.zh && cjkText.ko > 0 ? Self.koreanKey : Self.chineseKey
        var text = [Int](repeating: 0, count: candidates.count)
        var firstSeen = [Int](repeating: Int.max, count: candidates.count)
        for index in keys.indices {
            switch keys[index] {
            case Self.noLetters: continue
            case Self.pendingLatin: keys[index] = documentLatin
            case Self.pendingHan: keys[index] = documentCJK
            default: break
            }
            let key = Int(keys[index])
            text[key] += paragraphs[index].content.count
            firstSeen[key] = min(firstSeen[key], index)
        }
        var documentKey = Self.undeterminedKey
        if hint != nil {
            documentKey = Self.hintKey
        } else {
            var best = -1
            for key in text.indices where firstSeen[key] != Int.max {
                if best >= 0, text[best] > text[key] || (text[best] == text[key] && firstSeen[best] < firstSeen[key]) { continue }
                best = key
            }
            if best >= 0 { documentKey = UInt8(best) }
        }

        // Pass 3: paragraphs without letters take the document's language;
        // each language's index in the distinct table.
        var distinct: [Language] = []
        var distinctOfKey = [Int](repeating: -1, count: candidates.count)
        var indexOfParagraph = [UInt8](repeating: 0, count: keys.count)
        for index in keys.indices {
            let key = Int(keys[index] == Self.noLetters ? documentKey : keys[index])
            if distinctOfKey[key] < 0 {
                // The hint may equal a detected language (und): one entry.
                distinctOfKey[key] = distinct.firstIndex(of: candidates[key]) ?? {
                    distinct.append(candidates[key])
                    return distinct.count - 1
                }()
            }
            indexOfParagraph[index] = UInt8(distinctOfKey[key])
        }
        let document = candidates[Int(documentKey)]
        if distinct.isEmpty { distinct = [document] }
        self.init(document: document, distinct: distinct, indexOfParagraph: indexOfParagraph, unitsRead: unitsRead)
    }

    /// The language each script names by itself, by ``WritingSystem`` raw value.
    private static let defaultKeys: [UInt8] = WritingSystem.allCases.map { system in
        switch system {
        case .latin: englishKey
        case .cyrillic: key("ru")
        case .greek: key("el")
        case .arabic: key("ar")
        case .hebrew: key("he")
        case .devanagari: key("hi")
        case .thai: key("th")
        case .han: chineseKey
        case .hangul: koreanKey
        case .kana: japaneseKey
        case .other: undeterminedKey
        }
    }
}

/// The scripts that decide a paragraph's language; raw values index
/// ``ParagraphSample/letters``.
enum WritingSystem: Int, CaseIterable {
    case latin, cyrillic, greek, arabic, hebrew, devanagari, thai, han, hangul, kana, other

    /// `allCases.count`, built once: `allCases` makes a new array each time.
    static let count = allCases.count

    /// The system of an ICU script code (`UScriptCode`); nil for Common,
    /// Inherited and Unknown (digits, punctuation, combining marks).
    @inline(__always)
    init?(icuScript script: Int32) {
        switch script {
        case 0, 1, 103: return nil   // Common, Inherited, Unknown
        case 25: self = .latin
        case 8: self = .cyrillic
        case 14: self = .greek
        case 2: self = .arabic
        case 19: self = .hebrew
        case 10: self = .devanagari
        case 38: self = .thai
        case 17: self = .han
        case 18: self = .hangul
        case 20, 22: self = .kana    // Hiragana, Katakana
        default: self = .other
        }
    }
}

/// The scripts a hint's language is written in (CLDR likely subtags, by
/// ICU): `uk` → Cyrillic, `ja` → Han and kana, `ko` → Hangul and Han.
struct HintScripts {
    private let systems: UInt16
    /// The ISO 15924 code of a script not among ``WritingSystem``'s named
    /// ones (`Geor`, `Armn`), when the hint is written in one.
    let otherScript: String?

    static let none = HintScripts(systems: 0, otherScript: nil)

    private init(systems: UInt16, otherScript: String?) {
        self.systems = systems
        self.otherScript = otherScript
    }

    init(_ hint: Language) {
        // `und` means "not known": it is written in no script (ICU would
        // answer Latin, the likeliest script of all).
        guard hint.code != "und" else { self = .none; return }
        var buffer = [CChar](repeating: 0, count: 8)
        let length = lc_likely_script(hint.tag, &buffer, Int32(buffer.count))
        guard length > 0 else { self = .none; return }
        let code = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func bits(_ systems: WritingSystem...) -> UInt16 { systems.reduce(0) { $0 | 1 << $1.rawValue } }
        switch code {
        case "Latn": self.init(systems: bits(.latin), otherScript: nil)
        case "Cyrl": self.init(systems: bits(.cyrillic), otherScript: nil)
        case "Grek": self.init(systems: bits(.greek), otherScript: nil)
        case "Arab": self.init(systems: bits(.arabic), otherScript: nil)
        case "Hebr": self.init(systems: bits(.hebrew), otherScript: nil)
        case "Deva": self.init(systems: bits(.devanagari), otherScript: nil)
        case "Thai": self.init(systems: bits(.thai), otherScript: nil)
        case "Hani", "Hans", "Hant": self.init(systems: bits(.han), otherScript: nil)
        case "Jpan": self.init(systems: bits(.han, .kana), otherScript: nil)
        case "Kore": self.init(systems: bits(.han, .hangul), otherScript: nil)
        case "Hang": self.init(systems: bits(.hangul), otherScript: nil)
        case "Hira", "Kana", "Hrkt": self.init(systems: bits(.kana), otherScript: nil)
        default: self.init(systems: 0, otherScript: code)
        }
    }

    func contains(_ system: WritingSystem) -> Bool { systems & (1 << system.rawValue) != 0 }

    /// ICU's ISO 15924 code of a `UScriptCode` (`Geor`).
    static func code(ofICUScript script: Int32) -> String? {
        lc_script_code(script).map { String(cString: $0) }
    }
}

/// What the first letters of one paragraph say: letters per script and,
/// for Latin script, the stop-word scores. Allocates nothing.
struct ParagraphSample {
    /// Letters per ``WritingSystem`` (Han, kana and Hangul weighted by
    /// ``ParagraphLanguages/cjkLetterWeight``).
    var letters = SIMD16<Int32>()
    /// The ICU script of the first letter of an ``WritingSystem/other`` script.
    var otherScript: Int32 = -1
    /// Latin-script words read whole.
    var words = 0
    var scores = LatinLanguageProfiles.Scores()
    /// The UTF-16 units read.
    var unitsRead = 0

    /// Reads at most ``ParagraphLanguages/letterSample`` letters and
    /// ``ParagraphLanguages/unitSample`` units of `range`. Common letters
    /// (ASCII, Latin-1 and Latin Extended, basic Cyrillic, Han, kana,
    /// Hangul syllables) are classed by range; others ask ICU for their
    /// script. Words are scored only with `scoring`.
    /// - Complexity: O(1): bounded by the two samples.
    /// The sample of `range`: its scripts counted (by table, the cheap
    /// pass) and, with `scoring`, when it is a Latin-script paragraph, read
    /// again with its words scored (so Hangul or Han text never pays for
    /// the word look-ups). At most twice the sample's units.
    static func read(_ text: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, scoring: Bool) -> ParagraphSample {
        let counted = ParagraphSample(countingScriptsIn: text, range)
        guard scoring, counted.writingSystem == .latin else { return counted }
        var scored = ParagraphSample(scoringWordsIn: text, range)
        scored.unitsRead += counted.unitsRead
        // The script is the counting pass's (which may stop early: see
        // ``ParagraphLanguages/earlyLetters``); this pass adds the words.
        scored.letters = counted.letters
        scored.otherScript = counted.otherScript
        return scored
    }

    /// The sample with word scores.
    private init(scoringWordsIn text: UnsafeBufferPointer<UInt16>, _ range: Range<Int>) {
        let scoring = true
        var i = range.lowerBound
        let end = min(range.upperBound, range.lowerBound + ParagraphLanguages.unitSample)
        // The common systems are counted in registers, the rare ones in `letters`.
        var latin: Int32 = 0, han: Int32 = 0, hangul: Int32 = 0, kana: Int32 = 0
        var read = 0
        // The Latin word being read: its letters packed, its length, and
        // whether it can still be a stop word.
        var key: UInt64 = 0
        var length = 0
        var packable = true
        var previous: UInt8 = 0
        while i < end, read < ParagraphLanguages.letterSample {
            let u = text[i]
            i &+= 1
            if u < 0x80 {
                guard (u | 0x20) &- 0x61 < 26 else {
                    if length > 0 {
                        endWord(key, packable, scoring)
                        key = 0; length = 0; packable = true; previous = 0
                    }
                    continue
                }
            } else if u >= 0xAC00 && u <= 0xD7A3 {
                hangul &+= 1; read &+= 1
                if length > 0 { endWord(key, packable, scoring); key = 0; length = 0; packable = true; previous = 0 }
                continue
            } else if u >= 0x4E00 && u <= 0x9FFF {
                han &+= 1; read &+= 1
                if length > 0 { endWord(key, packable, scoring); key = 0; length = 0; packable = true; previous = 0 }
                continue
            } else if (u >= 0x3041 && u <= 0x3096) || (u >= 0x30A1 && u <= 0x30FA) {
                kana &+= 1; read &+= 1
                if length > 0 { endWord(key, packable, scoring); key = 0; length = 0; packable = true; previous = 0 }
                continue
            } else if (u <= 0xBF) || (u >= 0x2000 && u <= 0x2BFF) || (u >= 0x3000 && u <= 0x3004)
                        || (u >= 0x3008 && u <= 0x3020) || (u >= 0xFF01 && u <= 0xFF20) {
                // Latin-1 punctuation and symbols, general punctuation,
                // arrows, maths and other symbols, CJK punctuation: no letters.
                if length > 0 { endWord(key, packable, scoring); key = 0; length = 0; packable = true }
                if scoring, u == 0xBF || u == 0xA1 { LatinLanguageProfiles.letterHint(u, into: &scores) }
                previous = 0
                continue
            } else if !(u >= 0xC0 && u <= 0x24F && u != 0xD7 && u != 0xF7) {
                // Not Latin-1 or Latin Extended: basic Cyrillic by range, the rest by ICU.
                var system = WritingSystem.cyrillic
                if !(u >= 0x0400 && u <= 0x045F) {
                    var scalar = UInt32(u)
                    if u & 0xFC00 == 0xD800, i < end, text[i] & 0xFC00 == 0xDC00 {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(text[i]) - 0xDC00)
                        i &+= 1
                    }
                    let script = u & 0xF800 == 0xD800 && scalar < 0x10000 ? 0 : lc_script(scalar)
                    guard let known = WritingSystem(icuScript: script) else {
                        if length > 0 { endWord(key, packable, scoring); key = 0; length = 0; packable = true }
                        // ¿ and ¡ are not letters, but they are Spanish.
                        if scoring, u == 0xBF || u == 0xA1 { LatinLanguageProfiles.letterHint(u, into: &scores) }
                        previous = 0
                        continue
                    }
                    if known == .other, otherScript < 0 { otherScript = script }
                    system = known
                }
                read &+= 1
                switch system {
                case .latin: break   // Latin Extended Additional and the like: a Latin letter, below
                case .han: han &+= 1
                case .hangul: hangul &+= 1
                case .kana: kana &+= 1
                default: letters[system.rawValue] &+= 1
                }
                guard system == .latin else {
                    if length > 0 { endWord(key, packable, scoring); key = 0; length = 0; packable = true; previous = 0 }
                    continue
                }
                read &-= 1
            }
            // A Latin letter.
            latin &+= 1; read &+= 1
            guard scoring else { continue }
            if let byte = LatinLanguageProfiles.packedLetter(u) {
                if byte >= 0x80 { LatinLanguageProfiles.letterHint(UInt16(byte), into: &scores) }
                if previous == 0x69, byte == 0x6A { scores[LatinLanguageProfiles.dutch] &+= LatinLanguageProfiles.ijScore }
                previous = byte
                if length < LatinLanguageProfiles.longestStopWord { key |= UInt64(byte) << UInt64(8 &* length) } else { packable = false }
            } else {
                LatinLanguageProfiles.letterHint(u, into: &scores)
                previous = 0
                packable = false
            }
            length &+= 1
        }
        let weight = ParagraphLanguages.cjkLetterWeight
        letters[WritingSystem.latin.rawValue] = latin
        letters[WritingSystem.han.rawValue] = han &* weight
        letters[WritingSystem.hangul.rawValue] = hangul &* weight
        letters[WritingSystem.kana.rawValue] = kana &* weight
        unitsRead = i - range.lowerBound
        // A word at the end of the paragraph counts; one cut by the sample
        // (it may be cut short) does not.
        if length > 0, i >= range.upperBound { endWord(key, packable, scoring) }
    }

    /// Classes of ``ParagraphSample/classes``: a ``WritingSystem`` raw
    /// value, not a letter, or ask ICU.
    private static let notALetter: UInt8 = 11, askICU: UInt8 = 12

    /// Which 256-entry page of ``classes`` classes the units whose high
    /// byte is the index: two levels, so a unit is classed by two loads
    /// and no branch (what the sample does when it scores no words).
    private static let pages: [UInt8] = (0..<256).map { high in
        switch high {
        case 0x00: 1                      // ASCII and Latin-1, unit by unit
        case 0x01: 2                      // Latin Extended-A and -B: letters
        case 0x04: 3                      // Cyrillic
        case 0x20...0x2B: 4               // punctuation, symbols
        case 0x30: 5                      // CJK punctuation, kana
        case 0x4E...0x9F: 6               // Han
        case 0xAC...0xD6: 7               // Hangul syllables
        default: 0                        // ask ICU
        }
    }

    private static let classes: [UInt8] = {
        func page(_ body: (Int) -> UInt8) -> [UInt8] { (0..<256).map(body) }
        let latin = UInt8(WritingSystem.latin.rawValue)
        let ask = page { _ in askICU }
        let latin1 = page { low in
            if low < 0x80 { return (low | 0x20) >= 0x61 && (low | 0x20) <= 0x7A ? latin : notALetter }
            if low >= 0xC0 { return low == 0xD7 || low == 0xF7 ? notALetter : latin }
            return notALetter
        }
        let extended = page { low in low < 0x50 ? latin : askICU }   // 0x250… IPA and modifiers: ask
        let cyrillic = page { low in low < 0x60 ? UInt8(WritingSystem.cyrillic.rawValue) : askICU }
        let symbols = page { _ in notALetter }
        let cjk = page { low in
            let u = 0x3000 + low
            if (u >= 0x3041 && u <= 0x3096) || (u >= 0x30A1 && u <= 0x30FA) { return UInt8(WritingSystem.kana.rawValue) }
            return u <= 0x3004 || (u >= 0x3008 && u <= 0x3020) ? notALetter : askICU
        }
        let han = page { _ in UInt8(WritingSystem.han.rawValue) }
        let hangul = page { _ in UInt8(WritingSystem.hangul.rawValue) }
        return ask + latin1 + extended + cyrillic + symbols + cjk + han + hangul
    }()

    /// The sample without word scores: letters per script only.
    private init(countingScriptsIn text: UnsafeBufferPointer<UInt16>, _ range: Range<Int>) {
        var i = range.lowerBound
        let end = min(range.upperBound, range.lowerBound + ParagraphLanguages.unitSample)
        let cap = ParagraphLanguages.letterSample
        var read = 0
        var other: Int32 = -1
        var counts = SIMD16<Int32>()
        Self.pages.withUnsafeBufferPointer { pages in
            Self.classes.withUnsafeBufferPointer { classes in
                // 16 counters in memory: indexed stores, no branch per unit.
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 16) { tally in
                    tally.initialize(repeating: 0)
                    @inline(__always) func count(upTo cap: Int) {
                        while i < end, read < cap {
                            let u = text[i]
                            i &+= 1
                            let cls = classes[Int(pages[Int(u &>> 8)]) &<< 8 | Int(u & 0xFF)]
                            if cls == Self.askICU {
                                var scalar = UInt32(u)
                                if u & 0xFC00 == 0xD800, i < end, text[i] & 0xFC00 == 0xDC00 {
                                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(text[i]) - 0xDC00)
                                    i &+= 1
                                }
                                let script = u & 0xF800 == 0xD800 && scalar < 0x10000 ? 0 : lc_script(scalar)
                                guard let known = WritingSystem(icuScript: script) else { continue }
                                if known == .other, other < 0 { other = script }
                                tally[known.rawValue] &+= 1
                                read &+= 1
                                continue
                            }
                            tally[Int(cls)] &+= 1
                            read &+= cls == Self.notALetter ? 0 : 1
                        }
                    }
                    // The first ``earlyLetters`` letters; the rest of the
                    // sample only when they are not all of one script
                    // (Han goes on: later kana or Hangul decide ja or ko).
                    count(upTo: Swift.min(cap, ParagraphLanguages.earlyLetters))
                    var systems = 0
                    for lane in 0..<WritingSystem.count where tally[lane] > 0 { systems += 1 }
                    if i < end, !(systems == 1 && tally[WritingSystem.han.rawValue] == 0) { count(upTo: cap) }
                    for lane in 0..<WritingSystem.count { counts[lane] = tally[lane] }
                }
            }
        }
        let weight = ParagraphLanguages.cjkLetterWeight
        counts[WritingSystem.han.rawValue] &*= weight
        counts[WritingSystem.hangul.rawValue] &*= weight
        counts[WritingSystem.kana.rawValue] &*= weight
        letters = counts
        otherScript = other
        unitsRead = i - range.lowerBound
    }

    @inline(__always)
    private mutating func endWord(_ key: UInt64, _ packable: Bool, _ scoring: Bool) {
        guard scoring else { return }
        words &+= 1
        if packable { scores &+= LatinLanguageProfiles.score(ofWord: key) }
    }

    /// The paragraph's script (see ``ParagraphLanguages``, rule 1): the
    /// one with the most letters, Han, kana and Hangul together; among
    /// those, kana when it has at least as many letters as Hangul (Japanese
    /// is mostly kanji with some kana, and never writes Hangul; a Korean
    /// paragraph may quote a Japanese name), else Hangul, else Han. Nil
    /// without letters.
    var writingSystem: WritingSystem? {
        let cjk = letters[WritingSystem.han.rawValue] &+ letters[WritingSystem.hangul.rawValue]
            &+ letters[WritingSystem.kana.rawValue]
        var best: WritingSystem?
        var most: Int32 = 0
        // Every system but the three CJK ones, in the order that breaks ties.
        for raw in 0..<WritingSystem.count where raw < WritingSystem.han.rawValue || raw == WritingSystem.other.rawValue {
            guard letters[raw] > most else { continue }
            best = WritingSystem(rawValue: raw)
            most = letters[raw]
        }
        guard cjk > 0, cjk >= most else { return best }
        let kana = letters[WritingSystem.kana.rawValue], hangul = letters[WritingSystem.hangul.rawValue]
        if kana > 0, kana >= hangul { return .kana }
        return hangul > 0 ? .hangul : .han
    }
}
