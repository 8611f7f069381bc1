// ParagraphLanguageTests.swift: a mixed-language document, as a reader app
// sees it: each paragraph split by its own language's rules and reported
// with it, before and after a restart.

import Foundation
import Testing

@Suite struct ParagraphLanguageTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-languages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A Japanese paragraph, an English one, a Korean one and a Russian one.
    private let text = [
        "東京は日本の首都です。人口は約千四百万人です。",
        "Dr. Smith met Mr. Jones on Baker St. today. He left.",
        "오늘은 날씨가 정말 좋습니다. 우리는 공원에 갔습니다.",
        "Сегодня хорошая погода. Мы идём в парк.",
    ].joined(separator: "\n")

    /// The paragraph and language of each sentence line, with its text.
    private func sentences(_ client: LineClient) throws -> [String] {
        let reply = try client.request("SENTENCES mixed")
        #expect(reply.last == "OK SENTENCES 8 of 8")
        return reply.dropLast().map { line in
            let fields = line.split(separator: " ")
            let paragraph = fields.first { $0.hasPrefix("paragraph=") } ?? ""
            let language = fields.first { $0.hasPrefix("lang=") } ?? ""
            let text = line.range(of: " text=").map { String(line[$0.upperBound...]) } ?? ""
            // text= comes last.
            #expect(line.range(of: " text=").map { line[..<$0.lowerBound].contains(" lang=") } == true)
            return "\(paragraph) \(language) \(text)"
        }
    }

    private let expected = [
        "paragraph=0 lang=ja \"東京は日本の首都です。\"",
        "paragraph=0 lang=ja \"人口は約千四百万人です。\"",
        "paragraph=1 lang=en \"Dr. Smith met Mr. Jones on Baker St. today.\"",
        "paragraph=1 lang=en \"He left.\"",
        "paragraph=2 lang=ko \"오늘은 날씨가 정말 좋습니다.\"",
        "paragraph=2 lang=ko \"우리는 공원에 갔습니다.\"",
        "paragraph=3 lang=ru \"Сегодня хорошая погода.\"",
        "paragraph=3 lang=ru \"Мы идём в парк.\"",
    ]

    @Test func eachParagraphIsSplitAndReportedInItsOwnLanguageAcrossARestart() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = Array(text.utf8)
        do {
            let daemon = try Daemon(["--data-dir", directory.path])
            let client = try daemon.connect()
            client.send(bytes: Array("PUT mixed {\(bytes.count)}\n".utf8) + bytes + [0x0A])
            let put = try client.readReply().last ?? ""
            #expect(put.hasPrefix("OK PUT id=mixed"))
            // The document's language is the one of the most text (the
            // English paragraph is the longest); the list is in paragraph order.
            #expect(put.contains(" lang=en languages=ja,en,ko,ru rules=en "))
            #expect(try sentences(client) == expected)
            #expect(try client.request("GET mixed").last?.contains(" languages=ja,en,ko,ru ") == true)
            #expect(try client.request("LIST").first?.contains(" languages=ja,en,ko,ru ") == true)
            // A hint decides only what the script cannot: here the Latin paragraphs.
            client.send(bytes: Array("PUT hinted lang=en-GB {\(bytes.count)}\n".utf8) + bytes + [0x0A])
            let hinted = try client.readReply().last ?? ""
            #expect(hinted.contains(" lang=en-GB languages=ja,en-GB,ko,ru rules=en "))
            #expect(daemon.stop() == 0)
        }
        let daemon = try Daemon(["--data-dir", directory.path])
        let client = try daemon.connect()
        // Recomputed from the stored text and hint: the same as before.
        #expect(try sentences(client) == expected)
        #expect(try client.request("GET mixed").last?.contains(" languages=ja,en,ko,ru ") == true)
        let list = try client.request("LIST")
        #expect(list.contains { $0.hasPrefix("* id=hinted") && $0.contains(" lang=en-GB languages=ja,en-GB,ko,ru ") })
        #expect(list.contains { $0.hasPrefix("* id=mixed") && $0.contains(" languages=ja,en,ko,ru ") })
    }
}
