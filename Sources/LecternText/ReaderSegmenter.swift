// ReaderSegmenter.swift: sentence boundaries tailored for reading.

/// Finds sentence boundaries for reading: UAX #29's idea (a terminator,
/// closing punctuation, spaces, then a new sentence) with the decisions a
/// reader expects, per language.
///
/// One scan finds candidates (terminators, UAX #29 line separators, Korean
/// endings, list items); each candidate is then decided by the rules below,
/// looking only at its neighbourhood, so the cost stays linear:
///
/// - A closing quote or bracket after a terminator belongs to the sentence
///   (`"Stop." She` breaks after the quote); an opening one after the space
///   starts the next sentence.
/// - A lower-case word after a terminator continues the sentence
///   (`"This is great." she said.`, `Yahoo! in`, `a.m. in`), except after a
///   "?" or "!" attached to a word with nothing between it and the word
///   ("grow up? in india?"), and after a period in writing that starts its
///   sentences in lower case ("tonight. max and jen").
/// - Informal writing: an emoji or emoticon after a lower-case word, or a
///   Russian smile "))" with no bracket open, ends the sentence before a
///   capitalised word (``ParagraphScan/face(at:_:)``).
/// - A period needs a following space, except before CJK text: "3.14",
///   "v2.0.1", "example.com", "Jane.Doe@example.com", "report.pdf".
/// - A period after a non-breaking prefix (Moses lists plus supplements:
///   "Mr.", "т. е.", "No. 5"), after an initial ("J. R. R. Tolkien",
///   "А. С. Пушкин"), after a list ordinal at the start of a sentence, or
///   (German) after a day ordinal does not end the sentence. An acronym
///   ("U.S.") before a capitalised word ends it, in English, only when that
///   word commonly starts sentences ("U.S. How" but "U.S. Government").
/// - Ellipses: "..." and "…" end a sentence before a capital; a spaced
///   ". . ." mid-sentence does not; "word. . . . Next" is a period followed
///   by an ellipsis that opens the next sentence.
/// - Full-width terminators (。！？) need no space. A quotation followed by
///   a quotative particle (Korean 라고/고 attached, Japanese と) does not end the
///   sentence; in Korean, Japanese and Chinese a terminator inside brackets or
///   a quotation that closes later in the paragraph never ends the sentence.
/// - Korean: -다, -요, -죠 … before a new clause end a sentence without
///   punctuation (``KoreanEndings``).
/// - Run-in lists ("1) a 2) b", "• a • b") split before each item
///   (``ListMarkers``).
///
/// - Complexity: O(n) per paragraph; plain text between terminators costs one
///   table test per code unit.
struct ReaderSegmenter {
    let rules: LanguageRules
    private let flags = UnitClassTable.flags

    init(language: Language) {
        rules = LanguageRules.rules(for: language)
    }

    /// Calls `body` with each boundary strictly inside `paragraph`, in
    /// increasing order.
    func forEachBoundary(in text: UnsafeBufferPointer<UInt16>, paragraph: Paragraph, _ body: (Int) -> Void) {
        var scan = ParagraphScan(text: text, flags: flags, range: paragraph.content, rules: rules)
        scan.run(body)
    }
}
