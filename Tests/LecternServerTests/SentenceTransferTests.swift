// SentenceTransferTests.swift: MOVE and COPY leave both documents'
// white space as a reader expects (issue 18 item 6), in Latin, Cyrillic
// and Japanese (no space between sentences) and Korean: a sentence taken
// from the middle, start and end of a paragraph and of the document.

import Testing
import LecternText
@testable import LecternServer

@Suite struct SentenceTransferTests {
    /// `text` without sentences `numbers`, as MOVE leaves the source.
    private func removing(_ numbers: [Int], from text: String, language: String) -> String {
        let document = DocumentText(text)
        return SentenceTransfer.removing(numbers, text: document, sentences: SentenceTable(document: document, language: Language(language)))
    }

    /// The excerpt COPY and MOVE take of sentences `numbers`.
    private func excerpt(_ numbers: [Int], of text: String, language: String) -> String {
        let document = DocumentText(text)
        return SentenceTransfer.excerpt(of: numbers, text: document, sentences: SentenceTable(document: document, language: Language(language)))
    }

    static let latin = "Alpha one. Beta two. Gamma three.\nDelta four. Epsilon five.\n"
    static let cyrillic = "Первая строка. Вторая строку. Третья строка.\nЧетвёртая строка. Пятая строка."
    static let japanese = "今日は晴れ。明日は雨。午後は曇り。\n夜は星。朝は霧。\n"

    @Test func sentencesPerScriptAreTheOnesTheseTestsCount() {
        for (text, language) in [(Self.latin, "en"), (Self.cyrillic, "ru"), (Self.japanese, "ja")] {
            let document = DocumentText(text)
            let table = SentenceTable(document: document, language: Language(language))
            #expect(table.map(\.paragraph) == [0, 0, 0, 1, 1], "\(table.map { document.text(in: $0.content) })")
        }
    }

    @Test(arguments: [
        // (removed, what is left)
        ([1], "Alpha one. Gamma three.\nDelta four. Epsilon five.\n"),       // middle of a paragraph
        ([0], "Beta two. Gamma three.\nDelta four. Epsilon five.\n"),         // start of the document
        ([2], "Alpha one. Beta two.\nDelta four. Epsilon five.\n"),           // end of a paragraph
        ([3], "Alpha one. Beta two. Gamma three.\nEpsilon five.\n"),          // start of a paragraph
        ([4], "Alpha one. Beta two. Gamma three.\nDelta four.\n"),            // end of the document
        ([1, 2], "Alpha one.\nDelta four. Epsilon five.\n"),
        ([3, 4], "Alpha one. Beta two. Gamma three.\n"),                      // the last paragraph
        ([0, 1, 2], "Delta four. Epsilon five.\n"),                           // the first paragraph
        ([0, 2, 4], "Beta two.\nDelta four.\n"),
    ])
    func moveLeavesLatinAsAReaderExpects(removed: [Int], left: String) {
        #expect(removing(removed, from: Self.latin, language: "en") == left)
    }

    @Test(arguments: [
        ([1], "Первая строка. Третья строка.\nЧетвёртая строка. Пятая строка."),
        ([0], "Вторая строку. Третья строка.\nЧетвёртая строка. Пятая строка."),
        // The "строку. \n": no space is left before the line end.
        ([2], "Первая строка. Вторая строку.\nЧетвёртая строка. Пятая строка."),
        ([3], "Первая строка. Вторая строку. Третья строка.\nПятая строка."),
        ([4], "Первая строка. Вторая строку. Третья строка.\nЧетвёртая строка."),
        ([3, 4], "Первая строка. Вторая строку. Третья строка."),               // no line end where none was
    ])
    func moveLeavesCyrillicAsAReaderExpects(removed: [Int], left: String) {
        #expect(removing(removed, from: Self.cyrillic, language: "ru") == left)
    }

    @Test(arguments: [
        ([1], "今日は晴れ。午後は曇り。\n夜は星。朝は霧。\n"),
        ([0], "明日は雨。午後は曇り。\n夜は星。朝は霧。\n"),
        ([2], "今日は晴れ。明日は雨。\n夜は星。朝は霧。\n"),
        ([3], "今日は晴れ。明日は雨。午後は曇り。\n朝は霧。\n"),
        ([4], "今日は晴れ。明日は雨。午後は曇り。\n夜は星。\n"),
        ([3, 4], "今日は晴れ。明日は雨。午後は曇り。\n"),
    ])
    func moveLeavesJapaneseAsAReaderExpects(removed: [Int], left: String) {
        #expect(removing(removed, from: Self.japanese, language: "ja") == left)
    }

    @Test func excerptsAreSpacedAsTheirScriptSpacesSentences() {
        #expect(excerpt([1, 2], of: Self.latin, language: "en") == "Beta two. Gamma three.")
        // Across a paragraph end: a space, never glued.
        #expect(excerpt([2, 3], of: Self.latin, language: "en") == "Gamma three. Delta four.")
        #expect(excerpt([2, 4], of: Self.cyrillic, language: "ru") == "Третья строка. Пятая строка.")
        // Japanese puts no space between sentences, inside or across paragraphs.
        #expect(excerpt([0, 2], of: Self.japanese, language: "ja") == "今日は晴れ。午後は曇り。")
        #expect(excerpt([2, 3], of: Self.japanese, language: "ja") == "午後は曇り。夜は星。")
        // Korean does.
        #expect(excerpt([0, 1], of: "첫 문장이다.\n둘째 문장이다.", language: "ko") == "첫 문장이다. 둘째 문장이다.")
        // A blank paragraph adds nothing.
        #expect(excerpt([0, 1, 2], of: "One.\n\nTwo.", language: "en") == "One. Two.")
    }

    @Test func theExcerptIsANewLastParagraphOfTheTarget() {
        func appending(_ excerpt: String, to text: String?) -> String {
            SentenceTransfer.appending(excerpt, to: text.map { DocumentText($0) })
        }
        #expect(appending("Moved.", to: nil) == "Moved.")
        #expect(appending("Moved.", to: "") == "Moved.")
        #expect(appending("Moved.", to: "Notes.") == "Notes.\nMoved.")
        // The target's closing line ends stay at its end; its style of line end is kept.
        #expect(appending("Moved.", to: "Notes.\n") == "Notes.\nMoved.\n")
        #expect(appending("Moved.", to: "Notes.\r\n") == "Notes.\r\nMoved.\r\n")
        #expect(appending("Moved.", to: "Notes.\n\n") == "Notes.\nMoved.\n\n")
        // Spaces that dangled at its end go, before or after its line end.
        #expect(appending("Moved.", to: "Notes. ") == "Notes.\nMoved.")
        #expect(appending("Moved.", to: "Notes. \n") == "Notes.\nMoved.\n")
        #expect(appending("移した。", to: "メモ。\n") == "メモ。\n移した。\n")
    }
}
