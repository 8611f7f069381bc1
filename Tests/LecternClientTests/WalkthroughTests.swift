// WalkthroughTests.swift: examples/netcat-walkthrough.md, replayed against a live daemon.

import Foundation
import LecternProtocol
import Testing
@testable import LecternClient

/// The walkthrough is documentation and test at once: each of its code
/// blocks that holds typed lines (`> …`) is sent to one daemon as netcat
/// would send it, and the daemon must answer exactly the lines the block
/// shows — so the page cannot drift from what `lecternd` says.
///
/// When the daemon's answers change on purpose (a new layout engine moves
/// rects), `LECTERN_RECORD_WALKTHROUGH=1 swift test --filter WalkthroughTests`
/// writes the new answers into the page; review the diff (and the prose,
/// and any tap point that should land on something) before committing.
@Suite struct WalkthroughTests {
    static let url = ReadmeSnippetTests.root.appendingPathComponent("examples/netcat-walkthrough.md")

    @Test func everyBlockIsWhatTheDaemonSays() async throws {
        let recording = ProcessInfo.processInfo.environment["LECTERN_RECORD_WALKTHROUGH"] == "1"
        var page = try String(contentsOf: Self.url, encoding: .utf8).components(separatedBy: "\n")
        let blocks = Self.typedBlocks(in: page)
        #expect(blocks.count >= 10)
        let daemon = try LiveDaemon()
        var session = try RawSession(port: daemon.port)
        var answers: [(range: Range<Int>, typed: [String], received: [String])] = []
        for range in blocks {
            let typed = page[range].filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
            let expected = page[range].filter { !$0.hasPrefix("> ") }
            let received = try session.exchange(typed)
            if !recording { #expect(received == expected, "after \(typed.first ?? "")") }
            answers.append((range, typed, received))
        }
        guard recording else { return }
        // From the end, so that replacing a block keeps earlier ranges valid.
        for answer in answers.reversed() {
            page.replaceSubrange(answer.range, with: answer.typed.map { "> " + $0 } + answer.received)
        }
        try page.joined(separator: "\n").write(to: Self.url, atomically: true, encoding: .utf8)
    }

    /// The line ranges (inside the fences) of the code blocks that contain typed lines.
    static func typedBlocks(in page: [String]) -> [Range<Int>] {
        var blocks: [Range<Int>] = []
        var open: Int?
        for (index, line) in page.enumerated() where line == "```" {
            if let start = open {
                if page[start..<index].contains(where: { $0.hasPrefix("> ") }) { blocks.append(start..<index) }
                open = nil
            } else {
                open = index + 1
            }
        }
        return blocks
    }
}

/// A netcat-like session on a raw socket: sends typed lines, and reads the
/// daemon's lines until every request of them is answered (and a TYPE's
/// stream is DONE), so it needs no timing.
struct RawSession {
    private let socket: Socket
    private var reader = LineDecoder(maximumLineLength: 1 << 20)

    init(port: UInt16) throws {
        socket = try Socket.connect(to: .tcp(host: "127.0.0.1", port: port), timeout: .seconds(5))
    }

    /// Sends `typed` and returns what the daemon answers to it.
    mutating func exchange(_ typed: [String]) throws -> [String] {
        socket.sendAll(Array(typed.map { $0 + "\n" }.joined().utf8))
        var requests = 0
        var streams = 0
        var heredocEnd: String?
        for line in typed {
            if let end = heredocEnd {
                if line == end { heredocEnd = nil }
                continue
            }
            requests += 1
            if line.split(separator: " ").first?.uppercased() == "TYPE" { streams += 1 }
            if let marker = line.split(separator: " ").last, marker.hasPrefix("<<") { heredocEnd = String(marker.dropFirst(2)) }
        }
        var received: [String] = []
        while requests > 0 || streams > 0, let line = try readLine() {
            received.append(line)
            if Self.isFinal(line) { requests -= 1 }
            if line.hasPrefix("! DONE ") { streams -= 1 }
        }
        return received
    }

    /// `OK …`, `ERR …`, or either after a tag.
    private static func isFinal(_ line: String) -> Bool {
        let words = line.split(separator: " ", maxSplits: 2)
        let status = words.first?.hasPrefix("@") == true ? words.dropFirst().first : words.first
        return status == "OK" || status == "ERR"
    }

    private mutating func readLine() throws -> String? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            if let line = try reader.next() { return String(decoding: line, as: UTF8.self) }
            guard let count = socket.receive(into: buffer), count > 0 else { return nil }
            reader.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
