// TrailingLineEndTests.swift: what a trailing newline means, once, for
// every command (issue 18 item 5): trailing line ends and white space close
// the last paragraph; they make no empty paragraph, sentence or line, and a
// box glued to the end follows the last word.

import Foundation
import Testing

@Suite struct TrailingLineEndTests {
    /// The value of `key=` in a reply or data line.
    private func value(_ key: String, in line: String?) -> String? {
        line?.split(separator: " ").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    /// `key=` of every data line of a reply, as integers.
    private func integers(_ key: String, in reply: [String]) -> [Int] {
        reply.dropLast().compactMap { value(key, in: $0).flatMap { Int($0) } }
    }

    /// Texts ending in line ends and white space, each after the same words.
    static let endings = ["\n", "\n\n", "\r\n", " \n", "\n \n\t", "\u{2029}", "\n\n\n\n\n"]
    static let bodies = [
        "One two.\nThree four.",
        "Первая строка. Вторая строка.\nТретья.",
        "今日は晴れ。明日は雨。\n午後は曇り。",
    ]

    @Test(arguments: bodies)
    func attachAtEndFollowsTheLastWordWhateverLineEndsFollow(body: String) throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        // Where the box goes on the text without line ends...
        _ = try client.request("PUT bare \"\(escaped(body))\"")
        _ = try client.request("VIEW bare width=300")
        let bare = try #require(try client.request("ATTACH bare box at=end 20 20").last)
        let bareLines = try client.request("LINES bare")
        for ending in Self.endings {
            // ...is where it goes with them.
            let put = try client.request("PUT doc \"\(escaped(body + ending))\"").last
            #expect(put?.hasPrefix("OK PUT") == true, "\(put ?? "")")
            _ = try client.request("VIEW doc width=300")
            let attach = try #require(try client.request("ATTACH doc box at=end 20 20").last)
            #expect(value("offset", in: attach) == String(body.utf16.count), "\(ending.debugDescription): \(attach)")
            #expect(value("rect", in: attach) == value("rect", in: bare), "\(ending.debugDescription): \(attach) vs \(bare)")
            #expect(value("line", in: attach) == value("line", in: bare), "\(ending.debugDescription): \(attach) vs \(bare)")
            // No line after the box's: as many lines as without the line ends.
            let lines = try client.request("LINES doc")
            #expect(lines.count == bareLines.count, "\(ending.debugDescription): \(lines)")
            _ = try client.request("DETACH doc box")
        }
    }

    @Test(arguments: bodies)
    func paragraphCountsAgreeForTrailingLineEnds(body: String) throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        let paragraphs = body.split(separator: "\n").count
        for ending in Self.endings {
            let text = body + ending
            let put = try #require(try client.request("PUT doc \"\(escaped(text))\"").last)
            #expect(value("paragraphs", in: put) == String(paragraphs), "\(ending.debugDescription): \(put)")
            let sentences = try client.request("SENTENCES doc")
            #expect((integers("paragraph", in: sentences).max() ?? -1) + 1 == paragraphs, "\(ending.debugDescription): \(sentences)")
            // No empty sentence at the end: the last one is the last words.
            #expect(sentences.dropLast().last?.hasSuffix("text=\"\"") == false, "\(ending.debugDescription): \(sentences)")
            _ = try client.request("VIEW doc width=1000")
            let lines = try client.request("LINES doc")
            #expect(integers("paragraph", in: lines).max().map { $0 + 1 } == paragraphs, "\(ending.debugDescription): \(lines)")
            #expect(lines.count - 1 == paragraphs, "one line per paragraph at this width: \(lines)")
            // GET gives the text back byte for byte, line ends and all.
            let get = try client.request("GET doc")
            #expect(value("bytes", in: get.last) == String(text.utf8.count))
            #expect(value("paragraphs", in: get.last) == String(paragraphs))
        }
    }

    /// Blank paragraphs inside the text stay: a reader sees the gap.
    @Test func blankParagraphsInsideTheTextStay() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        let put = try client.request("PUT doc \"One.\\n\\nTwo.\\n\\n\"").last
        #expect(value("paragraphs", in: put) == "3")
        _ = try client.request("VIEW doc width=300")
        let lines = try client.request("LINES doc")
        #expect(integers("paragraph", in: lines) == [0, 1, 2])
        #expect(lines.dropLast().map { value("range", in: $0) } == ["0..5", "5..6", "6..12"])
    }

    /// The same after a restart: the store keeps the bytes, and the
    /// restored document reads them by the same rule.
    @Test func theStoreAgreesAfterARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-trailing-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "One two.\\nThree four.\\n\\n"
        var before: [String] = []
        do {
            let daemon = try Daemon(["--data-dir", directory.path])
            let client = try daemon.connect()
            _ = try client.request("PUT doc \"\(text)\"")
            _ = try client.request("ATTACH doc box at=end 20 20")
            before = [try client.request("GET doc").last ?? "", try client.request("VIEW doc width=300").last ?? ""]
            before += try client.request("LINES doc")
            #expect(daemon.stop() == 0)
        }
        let daemon = try Daemon(["--data-dir", directory.path])
        let client = try daemon.connect()
        let after = [try client.request("GET doc").last ?? "", try client.request("VIEW doc width=300").last ?? ""]
            + (try client.request("LINES doc"))
        #expect(after == before)
        #expect(value("paragraphs", in: after[0]) == "2")
        #expect(after.count == 2 + 3, "two lines and the status: \(after)")
    }

    /// `body` inside a quoted argument.
    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
            .replacingOccurrences(of: "\t", with: "\\t")
    }
}
