// MoveCopyWhitespaceTests.swift: MOVE and COPY on a live daemon leave both
// documents' white space as a reader expects (issue 18 item 6): no space
// dangling before a line end ("строку. \n"), no sentences glued together,
// in Latin, Cyrillic and Japanese, for a sentence from the start, middle
// and end of a paragraph and of the document.

import Foundation
import Testing

@Suite struct MoveCopyWhitespaceTests {
    struct Case: Sendable, CustomStringConvertible {
        let source: String
        let language: String
        /// The sentence moved, and the source left after each position:
        /// start of the document, middle, end of a paragraph, start of a
        /// paragraph, end of the document.
        let sentences: [String]
        let left: [String]
        var description: String { language }
    }

    static let cases = [
        Case(
            source: "Alpha one. Beta two. Gamma three.\nDelta four. Epsilon five.\n", language: "en",
            sentences: ["Alpha one.", "Beta two.", "Gamma three.", "Delta four.", "Epsilon five."],
            left: [
                "Beta two. Gamma three.\nDelta four. Epsilon five.\n",
                "Alpha one. Gamma three.\nDelta four. Epsilon five.\n",
                "Alpha one. Beta two.\nDelta four. Epsilon five.\n",
                "Alpha one. Beta two. Gamma three.\nEpsilon five.\n",
                "Alpha one. Beta two. Gamma three.\nDelta four.\n",
            ]),
        Case(
            source: "Первая строка. Вторая строку. Третья строка.\nЧетвёртая строка. Пятая строка.", language: "ru",
            sentences: ["Первая строка.", "Вторая строку.", "Третья строка.", "Четвёртая строка.", "Пятая строка."],
            left: [
                "Вторая строку. Третья строка.\nЧетвёртая строка. Пятая строка.",
                "Первая строка. Третья строка.\nЧетвёртая строка. Пятая строка.",
                "Первая строка. Вторая строку.\nЧетвёртая строка. Пятая строка.",
                "Первая строка. Вторая строку. Третья строка.\nПятая строка.",
                "Первая строка. Вторая строку. Третья строка.\nЧетвёртая строка.",
            ]),
        Case(
            source: "今日は晴れ。明日は雨。午後は曇り。\n夜は星。朝は霧。\n", language: "ja",
            sentences: ["今日は晴れ。", "明日は雨。", "午後は曇り。", "夜は星。", "朝は霧。"],
            left: [
                "明日は雨。午後は曇り。\n夜は星。朝は霧。\n",
                "今日は晴れ。午後は曇り。\n夜は星。朝は霧。\n",
                "今日は晴れ。明日は雨。\n夜は星。朝は霧。\n",
                "今日は晴れ。明日は雨。午後は曇り。\n朝は霧。\n",
                "今日は晴れ。明日は雨。午後は曇り。\n夜は星。\n",
            ]),
    ]

    /// PUTs `text` as a literal (exact bytes).
    private func put(_ id: String, _ text: String, language: String, on client: LineClient) throws {
        client.send("PUT \(id) lang=\(language) {\(text.utf8.count)}\r\n\(text)\r\n")
        let reply = try client.readReply()
        #expect(reply.last?.hasPrefix("OK PUT") == true, "\(reply)")
    }

    /// The exact text GET returns.
    private func text(_ id: String, on client: LineClient) throws -> String {
        #expect(client.sendLine("GET \(id)"))
        let header = try #require(try client.readLine())
        let count = try #require(Int(header.dropFirst(3).dropLast()), "\(header)")
        let bytes = try client.readBytes(count: count)
        _ = try client.readReply()  // the line end after the literal, then the status
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: cases)
    func moveLeavesBothDocumentsAsAReaderExpects(_ script: Case) throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        for (position, sentence) in script.sentences.enumerated() {
            try put("src", script.source, language: script.language, on: client)
            try put("dst", "Notes.\n", language: script.language, on: client)
            _ = try client.request("VIEW src width=1000")
            #expect(try client.selectSentence(position, of: "src")?.hasPrefix("OK SELECT added sentence=\(position)") == true)
            #expect(try client.request("MOVE src to=dst").last?.hasPrefix("OK MOVE sentences=1") == true)
            #expect(try text("src", on: client) == script.left[position], "\(script.language) sentence \(position)")
            // The target's line end stays at its end, after the new paragraph.
            #expect(try text("dst", on: client) == "Notes.\n\(sentence)\n", "\(script.language) sentence \(position)")
        }
    }

    @Test(arguments: cases)
    func copyAcrossAParagraphEndGluesNoSentences(_ script: Case) throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        try put("src", script.source, language: script.language, on: client)
        _ = try client.request("VIEW src width=1000")
        try client.selectSentence(2, of: "src")
        try client.selectSentence(3, of: "src")
        #expect(try client.request("COPY src to=fresh").last?.hasPrefix("OK COPY sentences=2") == true)
        // A space between them in Latin and Cyrillic; none in Japanese, as inside a paragraph.
        let joiner = script.language == "ja" ? "" : " "
        #expect(try text("fresh", on: client) == script.sentences[2] + joiner + script.sentences[3])
        #expect(try text("src", on: client) == script.source)
        // Moving both out leaves the first paragraph's end clean too.
        try client.selectSentence(2, of: "src")
        try client.selectSentence(3, of: "src")
        #expect(try client.request("MOVE src to=fresh").last?.hasPrefix("OK MOVE sentences=2") == true)
        let expected = script.source.replacingOccurrences(of: script.sentences[3] + (joiner.isEmpty ? "" : " "), with: "")
            .replacingOccurrences(of: (joiner.isEmpty ? "" : " ") + script.sentences[2], with: "")
        #expect(try text("src", on: client) == expected)
    }
}
