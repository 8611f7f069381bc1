// TranscriptTests.swift: protocol/transcripts replayed against a live daemon,
// and protocol/PROTOCOL.md checked against what the daemon says it has.

import Foundation
import LecternProtocol
import Testing

/// The repository's protocol/ folder, found from this file's path.
let protocolDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("protocol")

/// One transcript: what clients send (`> `) and exactly what they receive (`< `).
///
/// Lines starting with `#` are comments; blank lines are ignored. A `> ` line
/// is sent as written plus LF. The `< ` lines after it are the lines
/// expected before the next `> `, compared byte for byte (without CRLF).
/// A `<~ ` line is a regular expression the whole received line must match,
/// for figures that change from run to run (STATS). `<<closed>>` alone on a
/// line: the daemon must close the connection there.
///
/// Several connections: a capital letter before the marker (`B> `, `B< `,
/// `B<~ `, `B<<closed>>`) names the connection; no letter is connection A.
/// Connections are opened when first used.
struct Transcript {
    enum Action { case send(String), expect(String), expectMatch(String), closed }
    struct Step {
        let connection: String
        let action: Action
    }
    let name: String
    let steps: [Step]

    init(url: URL) throws {
        name = url.lastPathComponent
        var steps: [Step] = []
        let pattern = try NSRegularExpression(pattern: "^([A-Z]?)(> |<~ |< |<<closed>>$)(.*)$")
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            let text = String(line)
            guard let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let nameRange = Range(match.range(at: 1), in: text),
                let markerRange = Range(match.range(at: 2), in: text),
                let restRange = Range(match.range(at: 3), in: text)
            else { continue }
            let connection = text[nameRange].isEmpty ? "A" : String(text[nameRange])
            let rest = String(text[restRange])
            let action: Action
            switch text[markerRange] {
            case "> ": action = .send(rest)
            case "<~ ": action = .expectMatch(rest)
            case "< ": action = .expect(rest)
            default: action = .closed
            }
            steps.append(Step(connection: connection, action: action))
        }
        self.steps = steps
    }

    /// The request lines sent, on any connection.
    var sentLines: [String] {
        steps.compactMap { if case .send(let line) = $0.action { return line } else { return nil } }
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
        var clients: [String: LineClient] = [:]
        for (index, step) in transcript.steps.enumerated() {
            let client: LineClient
            if let existing = clients[step.connection] {
                client = existing
            } else {
                client = try daemon.connect()
                clients[step.connection] = client
            }
            let place = "\(name) step \(index + 1) (connection \(step.connection))"
            switch step.action {
            case .send(let line):
                client.sendLine(line)
            case .expect(let expected):
                let got = try client.readLine()
                #expect(got == expected, "\(place)")
            case .expectMatch(let pattern):
                let got = try client.readLine() ?? "<end of stream>"
                let regex = try NSRegularExpression(pattern: "^(?:" + pattern + ")$")
                let matched = regex.firstMatch(in: got, range: NSRange(got.startIndex..., in: got)) != nil
                #expect(matched, "\(place): '\(got)' does not match /\(pattern)/")
            case .closed:
                #expect(try client.waitForClose(), "\(place): the daemon should close here")
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
                transcript.sentLines.contains {
                    $0.split(separator: " ").first { !$0.hasPrefix("@") }?.uppercased() == name
                }
            }
            #expect(used, "no transcript uses \(name)")
        }
    }

    /// PROTOCOL.md's "Error codes" table and LecternProtocol's ErrorCode
    /// (the one list, which the SDK's LecternErrorCode maps from) hold the
    /// same codes, in the same order.
    @Test func theErrorTableListsExactlyTheProtocolsCodes() throws {
        let spec = try String(contentsOf: protocolDirectory.appendingPathComponent("PROTOCOL.md"), encoding: .utf8)
        let section = try #require(spec.components(separatedBy: "\n## Error codes\n").dropFirst().first, "PROTOCOL.md has no Error codes section")
        let table = section.components(separatedBy: "\n## ").first ?? section
        // Rows are "| `CODE` | when | connection |".
        let documented = table.split(separator: "\n").compactMap { row -> String? in
            guard row.hasPrefix("| `") else { return nil }
            return row.dropFirst(3).split(separator: "`").first.map(String.init)
        }
        let defined = ErrorCode.all.map(\.rawValue)
        for code in defined where !documented.contains(code) { Issue.record("PROTOCOL.md's error table lacks \(code)") }
        for code in documented where !defined.contains(code) { Issue.record("PROTOCOL.md documents \(code), which ErrorCode does not have") }
        #expect(documented == defined, "the table and ErrorCode list the codes in different orders")
    }
}
