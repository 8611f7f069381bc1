// SentenceTableTests.swift: the table's shape: contiguous ranges, trimmed
// content, paragraphs, lookup by offset and number.
import Foundation
import LecternText
import Testing

@Test func rangesAreContiguousAndCoverTheText() {
    let text = "  First one.  Second one?\r\n\nThird\u{2029}Fourth. Fifth!  "
    let document = DocumentText(text)
    for mode in SentenceMode.allCases {
        let table = SentenceTable(document: document, mode: mode, language: .english)
        #expect(table.first?.range.lowerBound == 0)
        #expect(table.last?.range.upperBound == document.utf16.count)
        for k in 1..<table.count {
            #expect(table[k - 1].range.upperBound == table[k].range.lowerBound)
        }
        #expect(table.enumerated().allSatisfy { $0.offset == $0.element.number })
    }
}

@Test func trailingWhitespaceBelongsToTheSentenceBefore() {
    let document = DocumentText("One.  Two.\nThree.")
    let table = SentenceTable(document: document)
    #expect(table.map(\.range) == [0..<6, 6..<11, 11..<17])
    #expect(table.map { document.text(in: $0.content) } == ["One.", "Two.", "Three."])
    #expect(table.map(\.paragraph) == [0, 0, 1])
}

@Test func leadingWhitespaceIsTrimmedFromContent() {
    let document = DocumentText("   Indented. Next.")
    let table = SentenceTable(document: document)
    #expect(table[0].range == 0..<13)
    #expect(table[0].content == 3..<12)
}

@Test func blankParagraphIsOneEmptySentence() {
    let document = DocumentText("A.\n\nB.")
    let table = SentenceTable(document: document)
    #expect(table.count == 3)
    #expect(table[1].range == 3..<4)
    #expect(table[1].content.isEmpty)
    #expect(table[1].paragraph == 1)
}

/// Trailing line ends make no empty sentence in reader mode: they belong
/// to the last sentence, as the paragraph they close does (issue 18 item 5).
@Test func trailingLineEndsMakeNoEmptySentence() {
    for text in ["One. Two.\n", "One. Two.\n\n", "One. Two. \r\n \r\n", "One. Two.\u{2029}\n\n"] {
        let document = DocumentText(text)
        let table = SentenceTable(document: document)
        #expect(table.map { document.text(in: $0.content) } == ["One.", "Two."], "\(text.debugDescription)")
        #expect(table.map(\.paragraph) == [0, 0])
        #expect(table[1].range.upperBound == document.utf16.count)
    }
    // Korean and Japanese too.
    let korean = DocumentText("첫 문장이다. 둘째 문장이다.\n\n")
    #expect(SentenceTable(document: korean, language: Language("ko")).map(\.paragraph) == [0, 0])
    let japanese = DocumentText("今日は晴れ。明日は雨。\n\n")
    #expect(SentenceTable(document: japanese, language: Language("ja")).map { japanese.text(in: $0.content) } == ["今日は晴れ。", "明日は雨。"])
}

@Test func emptyTextHasNoSentences() {
    let table = SentenceTable(document: DocumentText(""))
    #expect(table.isEmpty)
    #expect(table.sentence(containing: 0) == nil)
}

@Test func sentenceContainingAnOffset() {
    let document = DocumentText("Dr. Who arrived. He left.")
    let table = SentenceTable(document: document)
    #expect(table.count == 2)
    #expect(table.sentence(containing: 0)?.number == 0)
    #expect(table.sentence(containing: 16)?.number == 0)   // the space after "arrived."
    #expect(table.sentence(containing: 17)?.number == 1)
    #expect(table.sentence(containing: 25)?.number == 1)   // the end of the text
    #expect(table.sentence(containing: 26) == nil)
    #expect(table.sentence(containing: -1) == nil)
}

@Test func sentencesNeverCrossParagraphs() {
    let document = DocumentText("no terminator here\nnor here\r\nor here")
    let table = SentenceTable(document: document, mode: .reader)
    #expect(table.map { document.text(in: $0.content) } == ["no terminator here", "nor here", "or here"])
}

@Test func uax29ModeKeepsICUBehaviour() {
    // UAX #29 breaks after "Mr." before a capital; reader mode does not.
    let document = DocumentText("Mr. Smith left. He was late.")
    #expect(SentenceTable(document: document, mode: .uax29).count == 3)
    #expect(SentenceTable(document: document, mode: .reader).count == 2)
}

@Test func readerBreaksAfterLineSeparators() {
    let document = DocumentText("first line\u{2028}second line")
    #expect(SentenceTable(document: document).count == 2)
}

@Test func languageIsDetectedFromScript() {
    #expect(Language.detect(in: DocumentText("오늘은 날씨가 좋다.")) == Language("ko"))
    #expect(Language.detect(in: DocumentText("今日は晴れです。")) == Language("ja"))
    #expect(Language.detect(in: DocumentText("今天天气很好。")) == Language("zh"))
    #expect(Language.detect(in: DocumentText("Привет, мир.")) == Language("ru"))
    #expect(Language.detect(in: DocumentText("Hello there.")) == .english)
    #expect(Language.detect(in: DocumentText("1234 !!")) == .undetermined)
    #expect(SentenceTable(document: DocumentText("밥 먹었다 이제 잔다")).language == Language("ko"))
}

@Test func languageTagsAreReducedToTheirPrimarySubtag() {
    #expect(Language("en-US").code == "en")
    #expect(Language("zh_Hant").code == "zh")
    #expect(Language("").code == "und")
}

@Test func unknownLanguageStillSegments() {
    let document = DocumentText("Dies ist gut. Das auch.")
    let table = SentenceTable(document: document, language: Language("xx"))
    #expect(table.count == 2)
}

@Test func tableOffsetsConvertToOtherUnits() throws {
    let document = DocumentText("Café ☕️ ouvert. Entrez 👋. Merci.")
    let table = SentenceTable(document: document, language: Language("fr"))
    #expect(table.count == 3)
    let ranges = try table.map { try document.indexMap.convert($0.content, from: .utf16, to: .grapheme) }
    #expect(ranges == [0..<14, 15..<24, 25..<31])
}

@Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/perl5/auto/share/dist/Lingua-Sentence/nonbreaking_prefix.en")))
func mosesListsAreReadAtRunTime() {
    // "Brig." and "бульв." come only from the Moses lists, not Lectern's supplements.
    #expect(SentenceTable(document: DocumentText("Brig. Smith arrived. He left."), language: .english).count == 2)
    #expect(SentenceTable(document: DocumentText("Дом на бульв. Ленина. Там тихо."), language: Language("ru")).count == 2)
}

@Test func sentenceByNumberIsSafeForClientInput() {
    let table = SentenceTable(document: DocumentText("One. Two."))
    #expect(table.sentence(number: 1)?.content == 5..<9)
    #expect(table.sentence(number: 2) == nil)
    #expect(table.sentence(number: -1) == nil)
}

@Test func errorsCarryCodeWords() {
    #expect(TextDecodingError.invalidUTF8(byteOffset: 3).code == "BADUTF8")
    #expect(TextDecodingError.invalidUTF8(byteOffset: 3).description == "invalid UTF-8 at byte 3")
    #expect(OffsetError.notOnBoundary(offset: 1, unit: .utf8).code == "NOTBOUNDARY")
    #expect(OffsetError.outOfBounds(offset: 9, unit: .utf16, length: 4).code == "RANGE")
}
