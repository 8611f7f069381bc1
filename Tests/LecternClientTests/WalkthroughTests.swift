// WalkthroughTests.swift: examples/netcat-walkthrough.md, replayed against a live daemon.

import Foundation
import LecternProtocol
import Testing
@testable import LecternClient

/// The walkthrough is documentation and test at once: each of its code
/// blocks that holds typed lines (`> …`) is sent to a fresh daemon as
/// netcat would send it, and the daemon must answer exactly the lines the
/// block shows — so the page cannot drift from what `lecternd` says.
@Suite struct WalkthroughTests {
    /// The code blocks of the walkthrough that contain typed lines.
    static func blocks() throws -> [[String]] {
        let markdown = try String(
            contentsOf: ReadmeSnippetTests.root.appendingPathComponent("examples/netcat-walkthrough.md"), encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.components(separatedBy: "\n") {
            if line == "```" {
                if let block = current, block.contains(where: { $0.hasPrefix("> ") }) { blocks.append(block) }
                current = current == nil ? [] : nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func everyBlockIsWhatTheDaemonSays() async throws {
        let blocks = try Self.blocks()
        #expect(blocks.count >= 10)
        let daemon = try LiveDaemon()
        let socket = try Socket.connect(to: .tcp(host: "127.0.0.1", port: daemon.port), timeout: .seconds(5))
        var reader = LineDecoder(maximumLineLength: 1 << 20)
        for block in blocks {
            let typed = block.filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
            let expected = block.filter { !$0.hasPrefix("> ") }
            socket.sendAll(Array(typed.map { $0 + "\n" }.joined().utf8))
            var received: [String] = []
            while received.count < expected.count, let line = try readLine(socket, &reader) { received.append(line) }
            #expect(received == expected, "after \(typed.first ?? "")")
        }
    }

    /// The next line from `socket`, or nil at end of stream.
    private func readLine(_ socket: Socket, _ reader: inout LineDecoder) throws -> String? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            if let line = try reader.next() { return String(decoding: line, as: UTF8.self) }
            guard let count = socket.receive(into: buffer), count > 0 else { return nil }
            reader.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
