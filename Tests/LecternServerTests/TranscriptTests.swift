// TranscriptTests.swift: protocol/transcripts replayed against a live daemon,
// and protocol/PROTOCOL.md checked against what the daemon says it has.

import Foundation
import LecternProtocol
import Testing

/// The repository's protocol/ folder, found from this file's path.
let protocolDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("protocol")

/// One transcript: what a client sends (`> `) and exactly what it receives (`< `).
///
/// Lines starting with `#` are comments; blank lines are ignored. A `> ` line
/// is sent as written plus LF. The `< ` lines after it are the reply lines
/// expected before the next `> `, compared byte for byte (without CRLF).
/// A `<~ ` line is a regular expression the whole received line must match,
/// for figures that change from run to run (STATS). `<<closed>>` alone on a
/// line: the daemon must close the connection there.
struct Transcript {
    enum Step { case send(String), expect(String), expectMatch(String), closed }
    let name: String
    let steps: [Step]

    init(url: URL) throws {
        name = url.lastPathComponent
        var steps: [Step] = []
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("> ") {
                steps.append(.send(String(line.dropFirst(2))))
            } else if line.hasPrefix("<~ ") {
                steps.append(.expectMatch(String(line.dropFirst(3))))
            } else if line.hasPrefix("< ") {
                steps.append(.expect(String(line.dropFirst(2))))
            } else if line == "<<closed>>" {
                steps.append(.closed)
            }
        }
        self.steps = steps
    }

    static func all() throws -> [Transcript] {
        let folder = protocolDirectory.appendingPathComponent("transcripts")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "txt" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
            .map(Transcript.init(url:))
    }
}

@Suite struct TranscriptTests {
    @Test(arguments: try Transcript.all().map(\.name))
    func transcriptReplaysByteForByte(name: String) throws {
        let transcript = try #require(try Transcript.all().first { $0.name == name })
        let daemon = try Daemon()
        let client = try daemon.connect()
        for (index, step) in transcript.steps.enumerated() {
            switch step {
            case .send(let line):
                client.sendLine(line)
            case .expect(let expected):
                let got = try client.readLine()
                #expect(got == expected, "\(name) step \(index + 1)")
            case .expectMatch(let pattern):
                let got = try client.readLine() ?? "<end of stream>"
                let regex = try NSRegularExpression(pattern: "^(?:" + pattern + ")$")
                let matched = regex.firstMatch(in: got, range: NSRange(got.startIndex..., in: got)) != nil
                #expect(matched, "\(name) step \(index + 1): '\(got)' does not match /\(pattern)/")
            case .closed:
                #expect(try client.waitForClose(), "\(name) step \(index + 1): the daemon should close here")
            }
        }
    }

    @Test func everyCommandInHelpIsSpecifiedAndInATranscript() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        let names = try client.request("HELP").dropLast().compactMap {
            $0.dropFirst(2).split(separator: " ").first.map(String.init)
        }
        #expect(names.count >= 3)
        let spec = try String(contentsOf: protocolDirectory.appendingPathComponent("PROTOCOL.md"), encoding: .utf8)
        let transcripts = try Transcript.all()
        for name in names {
            #expect(spec.contains("\n### \(name)"), "PROTOCOL.md has no section for \(name)")
            let used = transcripts.contains { transcript in
                transcript.steps.contains {
                    if case .send(let line) = $0 {
                        return line.split(separator: " ").first { !$0.hasPrefix("@") }?.uppercased() == name
                    }
                    return false
                }
            }
            #expect(used, "no transcript uses \(name)")
        }
    }

    @Test func everyErrorCodeIsSpecified() throws {
        let spec = try String(contentsOf: protocolDirectory.appendingPathComponent("PROTOCOL.md"), encoding: .utf8)
        for code in ErrorCode.all.map(\.rawValue) {
            #expect(spec.contains("| `\(code)` |"), "PROTOCOL.md's error table lacks \(code)")
        }
    }
}
