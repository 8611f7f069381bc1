// DocumentTests.swift: PUT, GET, DEL, LIST, SENTENCES and offset units, against a live daemon.

import Foundation
import Testing
@testable import LecternClient

@Suite struct DocumentTests {
    @Test func putAndGetRoundTripTextByteForByte() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        // CR, CRLF, a trailing line end, NUL-free controls, quotes, emoji: the literal carries them all.
        let text = "First line.\r\nSecond \"quoted\" {5}\n<<END\n\tTabbed 👍🏽.\n"
        let info = try await lectern.put("exact", text: text, language: "en")
        #expect(info.id == "exact")
        #expect(info.revision == 1)
        #expect(info.bytes == text.utf8.count)
        #expect(info.length == text.utf16.count)
        #expect(info.language == "en")
        #expect(info.mode == .reader)
        let document = try await lectern.get("exact")
        #expect(document.bytes == Array(text.utf8))
        #expect(document.text == text)
        #expect(document.info == info)
    }

    /// A 5 MB document goes out as one literal while other requests are in
    /// flight, and comes back byte for byte.
    @Test func aLargeDocumentRoundTripsBesidePipelinedRequests() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        let paragraph = "한국어 문장입니다. English sentence; \"quoted\" \\ {5}\r\n"
        let text = String(repeating: paragraph, count: 5_000_000 / paragraph.utf8.count)
        async let pings = withThrowingTaskGroup(of: Bool.self) { group in
            for n in 0..<100 { group.addTask { try await lectern.ping("\(n)") == "\(n)" } }
            return try await group.reduce(true) { $0 && $1 }
        }
        let info = try await lectern.put("large", text: text)
        #expect(info.bytes == text.utf8.count)
        #expect(try await pings)
        #expect(try await lectern.get("large").bytes == Array(text.utf8))
    }

    @Test func putReplacesAndCountsRevisions() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("d", text: "One.")
        let second = try await lectern.put("d", text: "Dr. Smith arrived. He left.", mode: .uax29)
        #expect(second.revision == 2)
        #expect(second.mode == .uax29)
        #expect(second.sentences == 3)
    }

    /// `language` is the BCP 47 tag as given, in canonical case, and
    /// `rules` says which sentence rules apply; PUT, GET and LIST agree.
    @Test func languageTagsReportWhichRulesApply() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        let brazilian = try await lectern.put("br", text: "Olá. Tudo bem?", language: "PT-br")
        #expect(brazilian.language == "pt-BR")
        #expect(brazilian.rules == "pt")
        let uax29 = try await lectern.put("u", text: "Dr. Smith arrived. He left.", mode: .uax29)
        #expect(uax29.rules == "uax29")
        let hawaiian = try await lectern.put("h", text: "Aloha.", language: "haw")
        #expect(hawaiian.language == "haw")
        #expect(hawaiian.rules == "generic")
        #expect(try await lectern.get("br").info == brazilian)
        #expect(try await lectern.list().map(\.rules) == ["pt", "generic", "uax29"])
        do {
            try await lectern.put("x", text: "Hi.", language: "xx-bogus")
            Issue.record("xx is not a language")
        } catch let error as LecternError {
            #expect(error.code == .arguments)
        }
    }

    @Test func sentencesArePagedAndTyped() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("intro", text: "Dr. Smith arrived at 5 p.m. today. He was late!")
        let all = try await lectern.sentences(of: "intro")
        #expect(all.total == 2)
        #expect(all.sentences.map(\.text) == ["Dr. Smith arrived at 5 p.m. today.", "He was late!"])
        #expect(all.sentences[0].range == 0..<35)
        #expect(all.sentences[0].content == 0..<34)
        #expect(all.sentences[1].number == 1)
        let page = try await lectern.sentences(of: "intro", from: 1, count: 1)
        #expect(page.sentences.map(\.number) == [1])
        #expect(page.total == 2)
    }

    /// Each paragraph has its own language: the sentences say which, the
    /// document's facts list them all; PUT, GET and LIST agree.
    @Test func paragraphLanguagesAreTyped() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        let text = "東京は日本の首都です。\nDr. Smith met Mr. Jones on Baker St. today. He left.\n오늘은 날씨가 좋습니다."
        let info = try await lectern.put("mixed", text: text)
        #expect(info.language == "en")
        #expect(info.languages == ["ja", "en", "ko"])
        #expect(try await lectern.get("mixed").info.languages == ["ja", "en", "ko"])
        #expect(try await lectern.list().map(\.languages) == [["ja", "en", "ko"]])
        let sentences = try await lectern.sentences(of: "mixed").sentences
        #expect(sentences.map(\.language) == ["ja", "en", "en", "ko"])
        #expect(sentences.map(\.text)[1] == "Dr. Smith met Mr. Jones on Baker St. today.")
    }

    @Test func quotedSentenceTextComesBackExactly() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        let text = "날씨가 좋다 우리는 공원에 갔다 \"정말 좋네요\"라고 말했다.\t\\ 끝."
        try await lectern.put("ko", text: text, language: "ko")
        let sentences = try await lectern.sentences(of: "ko").sentences
        #expect(sentences.count >= 2)
        // Each sentence's quoted text is exactly the text its content range covers.
        for sentence in sentences {
            #expect(text.range(sentence.content, in: .utf16).map { String(text[$0]) } == sentence.text)
        }
        #expect(sentences.contains { $0.text.contains("\"정말 좋네요\"") })
    }

    @Test func listAndDelete() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        for id in ["story", "strict", "intro"] { try await lectern.put(id, text: "Text of \(id).") }
        #expect(try await lectern.list().map(\.id) == ["intro", "story", "strict"])
        #expect(try await lectern.list(prefix: "s").map(\.id) == ["story", "strict"])
        try await lectern.delete("story")
        #expect(try await lectern.list().map(\.id) == ["intro", "strict"])
        await #expect(throws: LecternError.self) { try await lectern.get("story") }
    }

    @Test func offsetsFollowTheChosenUnitAndMapToStringIndices() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        let text = "I 👍🏽 it. 한국어 좋아요. Done!"
        try await lectern.put("emoji", text: text, language: "en")
        let lengths: [OffsetUnit: Int] = [
            .utf16: text.utf16.count, .utf8: text.utf8.count, .scalar: text.unicodeScalars.count, .grapheme: text.count,
        ]
        for unit in OffsetUnit.allCases {
            try await lectern.hello(units: unit)
            let sentences = try await lectern.sentences(of: "emoji").sentences
            let texts = sentences.compactMap { text.range($0.content, in: unit).map { String(text[$0]) } }
            #expect(texts == ["I 👍🏽 it.", "한국어 좋아요.", "Done!"], "unit \(unit)")
            #expect(try await lectern.get("emoji").info.length == lengths[unit], "unit \(unit)")
        }
    }
}
