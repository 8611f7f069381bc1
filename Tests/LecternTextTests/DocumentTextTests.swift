// DocumentTextTests.swift: decoding, validation and paragraphs.
import LecternText
import Testing

@Test func rejectsInvalidUTF8WithItsByteOffset() {
    let cases: [([UInt8], Int)] = [
        ([0x61, 0x62, 0xFF], 2),                     // never valid
        ([0x61, 0xC0, 0xAF], 1),                     // overlong "/"
        ([0xE0, 0x80, 0xAF], 0),                     // overlong 3-byte
        ([0x41, 0xED, 0xA0, 0x80], 1),               // encoded surrogate
        ([0xF4, 0x90, 0x80, 0x80], 0),               // above U+10FFFF
        ([0x61, 0x80], 1),                           // stray continuation
        ([0x61, 0xE2, 0x82], 1),                     // cut short at the end
        ([0xC3, 0xA9, 0xE2, 0x82, 0x41], 2),         // cut short before ASCII
    ]
    for (bytes, offset) in cases {
        #expect(throws: TextDecodingError.invalidUTF8(byteOffset: offset)) { try DocumentText(utf8: bytes) }
    }
}

@Test func acceptsEveryEncodingWidth() throws {
    let string = "a é € 👍 \u{10FFFF}"
    let document = try DocumentText(utf8: Array(string.utf8))
    #expect(document.string == string)
    #expect(document.utf16 == Array(string.utf16))
}

@Test func paragraphsSplitAtLFCRLFAndParagraphSeparator() {
    let document = DocumentText("One.\r\nTwo.\nThree.\u{2029}Four.\rstill four")
    #expect(document.paragraphs.map(\.range) == [0..<6, 6..<11, 11..<18, 18..<34])
    #expect(document.paragraphs.map(\.content) == [0..<4, 6..<10, 11..<17, 18..<34])
}

@Test func trailingSeparatorOpensNoEmptyParagraph() {
    #expect(DocumentText("a\n").paragraphs.count == 1)
    #expect(DocumentText("").paragraphs.isEmpty)
}

/// Trailing line ends (and white space among them) close the last
/// paragraph and open none (issue 18 item 5); blank paragraphs inside the
/// text stay.
@Test func trailingLineEndsCloseTheLastParagraph() {
    let cases: [(String, [Range<Int>], [Range<Int>])] = [
        ("a\n\n", [0..<3], [0..<1]),
        ("a\r\n\r\n", [0..<5], [0..<1]),
        ("a  \n \n\t", [0..<7], [0..<3]),
        ("a\n  ", [0..<4], [0..<1]),
        ("a\u{2029}\u{2029}", [0..<3], [0..<1]),
        ("a\n\nb\n\n", [0..<2, 2..<3, 3..<6], [0..<1, 2..<2, 3..<4]),
        ("\n\n", [0..<2], [0..<0]),
        ("a  ", [0..<3], [0..<3]),
    ]
    for (text, ranges, contents) in cases {
        let document = DocumentText(text)
        #expect(document.paragraphs.map(\.range) == ranges, "\(text.debugDescription)")
        #expect(document.paragraphs.map(\.content) == contents, "\(text.debugDescription)")
    }
}

@Test func trimmedEndIsAfterTheLastCharacterThatIsNotWhiteSpace() {
    #expect(DocumentText("One. Two.\n").trimmedEnd == 9)
    #expect(DocumentText("One. Two. \r\n\u{3000}\n").trimmedEnd == 9)
    #expect(DocumentText("한국어.").trimmedEnd == 4)
    #expect(DocumentText("👍🏽\n").trimmedEnd == 4)
    #expect(DocumentText(" \n").trimmedEnd == 0)
    #expect(DocumentText("").trimmedEnd == 0)
}

@Test func paragraphIndexByOffset() {
    let document = DocumentText("ab\ncd\nef")
    #expect(document.paragraphIndex(containing: 0) == 0)
    #expect(document.paragraphIndex(containing: 2) == 0)
    #expect(document.paragraphIndex(containing: 3) == 1)
    #expect(document.paragraphIndex(containing: 8) == 2)
    #expect(document.paragraphIndex(containing: 9) == nil)
}
