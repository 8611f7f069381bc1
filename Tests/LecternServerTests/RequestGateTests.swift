// RequestGateTests.swift: every request passes one gate (look-up, AUTH,
// arity, typed arguments, handler), whatever its framing and whichever
// reader takes its arguments, and STATS counts it once.

import Foundation
import Testing
@testable import LecternServer
import LecternServerHarness

@Suite struct RequestGateTests {
    static let text = "One sentence here. Another one follows it. A third ends the text."

    /// Trailing blanks that take a line past the plain-line limit, so that
    /// the decoder parses it into a request (the path a line with quotes,
    /// escapes or a payload takes).
    static let padding = String(repeating: " ", count: 4200)

    /// The exact bytes of the reply to one line, from an in-process daemon
    /// (over a socketpair).
    private static func replyBytes(_ line: String, on bench: RequestPathBenchmark) throws -> [UInt8] {
        try #require(bench.exchange(Array((line + "\n").utf8), finalLines: 1), "no reply to \(line.prefix(40))")
    }

    /// ``replyBytes(_:on:)`` for a tagged line, whose final line starts
    /// with its tag (which the harness does not count): a PING after it
    /// marks the end, and its `OK PONG` is taken off.
    private static func taggedReplyBytes(_ line: String, on bench: RequestPathBenchmark) throws -> [UInt8] {
        let bytes = try #require(bench.exchange(Array((line + "\nPING\n").utf8), finalLines: 1), "no reply to \(line.prefix(40))")
        let pong = Array("OK PONG\r\n".utf8)
        #expect(bytes.suffix(pong.count).elementsEqual(pong))
        return Array(bytes.dropLast(pong.count))
    }

    private static func prepared() throws -> RequestPathBenchmark {
        let bench = try RequestPathBenchmark()
        let setup = Array("PUT d lang=en \"\(text)\"\nVIEW d width=200\n".utf8)
        let replies = String(decoding: try #require(bench.exchange(setup, finalLines: 2)), as: UTF8.self)
        #expect(replies.contains("OK PUT id=d ") && replies.contains("OK VIEW id=d "), "\(replies)")
        return bench
    }

    // MARK: One handler, whichever reader takes the arguments

    /// A request whose numbers the cheap reader declines (`1e1`, `+10`,
    /// `10.`) is read from the parsed line and answered by the same
    /// handler: the same bytes as the common spelling. So is the line
    /// padded onto the parsed path, and the tagged line but for its tag.
    @Test(arguments: [
        ("TAP d 10 5", "TAP d 10 5"),
        ("TAP d 1e1 5", "TAP d 10 5"),
        ("TAP d +10 5", "TAP d 10 5"),
        ("TAP d 10. 5.0", "TAP d 10 5"),
        ("TAP d 90 25 slop=1e1", "TAP d 90 25 slop=10"),
        ("TAP d 300 5 slop=+40", "TAP d 300 5 slop=40"),
        ("TAP d 300 5", "TAP d 300 5 slop=0"),
        ("PING", "PING"),
        ("ping hello", "PING hello"),
    ])
    func declinedSpellingsGiveTheSameBytes(request: String, reference: String) throws {
        let bench = try Self.prepared()
        let expected = try Self.replyBytes(reference, on: bench)
        #expect(String(decoding: expected, as: UTF8.self).contains("OK "), "\(String(decoding: expected, as: UTF8.self))")
        #expect(try Self.replyBytes(request, on: bench) == expected)
        #expect(try Self.replyBytes(request + Self.padding, on: bench) == expected)
        // Tagged: the same bytes with the tag before the final line's OK.
        var lines = String(decoding: expected, as: UTF8.self).components(separatedBy: "\r\n")
        lines[lines.count - 2] = "@g " + lines[lines.count - 2]  // the final line (the last is empty)
        #expect(String(decoding: try Self.taggedReplyBytes("@g " + request, on: bench), as: UTF8.self) == lines.joined(separator: "\r\n"))
    }

    /// The gate's errors, worded once: the same bytes plain, tagged (with
    /// the tag) and parsed; arity is checked by the gate before any
    /// argument is read.
    @Test func errorsAreTheGatesWhateverTheForm() throws {
        let bench = try Self.prepared()
        let usage = "usage: TAP <id> <x> <y> [slop=<pt>]"
        let cases = [
            ("TAP d 10", "ERR ARGS TAP needs 3 arguments; \(usage)"),
            ("TAP", "ERR ARGS TAP needs 3 arguments; \(usage)"),
            ("TAP d 10 5 6", "ERR ARGS TAP takes at most 3 arguments; \(usage)"),
            // Arity first, then the numbers: a bad number in a wrong-arity line is an ARGS error.
            ("TAP d x 5 6", "ERR ARGS TAP takes at most 3 arguments; \(usage)"),
            ("TAP d x 5", "ERR NUMBER x must be a number from -1000000000 to 1000000000 points, not 'x'"),
            ("TAP d 1e400 5", "ERR NUMBER x must be a number from -1000000000 to 1000000000 points, not '1e400'"),
            ("TAP d 10 2e9", "ERR NUMBER y must be from -1000000000 to 1000000000 points, not 2e9"),
            ("TAP d 10 5 slop=-1", "ERR NUMBER slop must be from 0 to 10000 points, not -1"),
            // The numbers are read before the document is looked up.
            ("TAP nodoc x 5", "ERR NUMBER x must be a number from -1000000000 to 1000000000 points, not 'x'"),
            ("TAP nodoc 10 5", "ERR NODOC no document 'nodoc' (LIST shows the documents)"),
            ("TAP b@d 10 5", "ERR ARGS document id must be 1 to 128 characters of A-Z a-z 0-9 _ - . : / (got 'b@d')"),
            ("TAPP d 10 5", "ERR UNKNOWN unknown command 'TAPP'; did you mean TAP? (HELP lists commands)"),
            ("PING a b", "ERR ARGS PING takes at most 1 argument; usage: PING [message]"),
            // Options after the arity, before the numbers (issue 18): an unknown or repeated key.
            ("TAP d x 5 slp=1", "ERR ARGS unknown option 'slp' for TAP; did you mean slop=? (TAP takes slop=)"),
            ("TAP d 10 5 foo=1", "ERR ARGS unknown option 'foo' for TAP (TAP takes slop=)"),
            ("TAP d 10 5 slop=1 slop=2", "ERR ARGS TAP got slop= twice; give each option once; \(usage)"),
            ("PING a=b", "ERR ARGS unknown option 'a' for PING, which takes none (a text with '=' in it is written quoted); usage: PING [message]"),
        ]
        for (request, error) in cases {
            #expect(try Self.replyBytes(request, on: bench) == Array((error + "\r\n").utf8), "\(request)")
            #expect(try Self.replyBytes(request + Self.padding, on: bench) == Array((error + "\r\n").utf8), "\(request) parsed")
            #expect(try Self.taggedReplyBytes("@e " + request, on: bench) == Array(("@e " + error + "\r\n").utf8), "\(request) tagged")
        }
        // A payload for a command that takes none: the gate's ARGS, before the arguments.
        let literal = try #require(bench.exchange(Array("TAP d 10 5 {3}\nabc\n".utf8), finalLines: 1))
        #expect(String(decoding: literal, as: UTF8.self) == "ERR ARGS TAP takes no literal or heredoc payload; \(usage)\r\n")
    }

    /// RESP arrays go through the same gate: the same errors, as RESP errors.
    @Test func respRequestsPassTheSameGate() throws {
        let daemon = try Daemon()
        let setup = try daemon.connect()
        #expect(try setup.request("PUT d lang=en \"\(Self.text)\"").last?.hasPrefix("OK PUT") == true)
        #expect(try setup.request("VIEW d width=200 default=yes").last?.hasPrefix("OK VIEW") == true)
        let plain = try daemon.connect()
        let resp = try daemon.connect()
        for request in ["TAP d 10 5", "TAP d 1e1 5", "TAP d +10 5 foo=1", "TAP d 10", "TAP d 10 5 6", "TAP d x 5", "TAPP d 1 2", "PING", "PING hi"] {
            plain.sendLine(request)
            let reply = try #require(try plain.readLineReply())
            resp.sendRESP(request.split(separator: " ").map { Array($0.utf8) })
            let respReply = try #require(try resp.readRESPReply())
            #expect(respReply == RESPReply(expectedFor: reply), "\(request)")
        }
    }

    // MARK: Arity

    /// The arity the gate checks is read from the syntax HELP shows: for
    /// every command it is the one the table stated by hand before (so no
    /// `ERR ARGS` moved), and no command is left out of this list.
    @Test func arityReadFromTheSyntaxIsTheOneStatedBefore() {
        let stated: [String: (Int, Int?)] = [
            "HELLO": (0, 6), "PING": (0, 1), "HELP": (0, 1), "QUIT": (0, 0), "STATS": (0, 1), "AUTH": (1, 1),
            "PUT": (1, 2), "GET": (1, 1), "DEL": (1, 1), "LIST": (0, 1), "SENTENCES": (1, 3),
            "VIEW": (1, 1), "LINES": (1, 1), "TAP": (3, 3), "RECTS": (2, 2), "CARET": (2, 2),
            "ATTACH": (4, 5), "DETACH": (2, 2), "RENDER": (1, 1),
            "SELECT": (3, 3), "SELECTION": (1, 1), "CLEAR": (1, 1), "COPY": (1, 1), "MOVE": (1, 1),
            "WATCH": (1, 1), "UNWATCH": (1, 1),
            "TYPE": (1, 1), "PAUSE": (1, 1), "RESUME": (1, 1), "SEEK": (2, 2), "SPEED": (1, 1), "STOP": (1, 1),
        ]
        let commands = Server.allCommands
        #expect(Set(commands.map(\.name)) == Set(stated.keys))
        for command in commands {
            let arity = stated[command.name]
            #expect(command.minimumArguments == arity?.0 && command.maximumArguments == arity?.1, "\(command.usage)")
        }
    }

    /// The syntax forms no command uses yet read as documented.
    @Test(arguments: [
        ("<name> <text…>", Arity(minimum: 2, maximum: nil)),
        ("[<word>...]", Arity(minimum: 0, maximum: nil)),
        ("(<a> <b> | <c>) [x=<y>|<z>]", Arity(minimum: 1, maximum: 2)),
        ("[<a> [<b>]]", Arity(minimum: 0, maximum: 2)),
    ])
    func aritySyntax(syntax: String, arity: Arity) {
        #expect(Arity(syntax: syntax) == arity, "\(syntax)")
    }

    // MARK: AUTH

    /// Before AUTH the gate refuses every command not allowed before it,
    /// whatever its arguments (wrong arity, numbers the cheap reader
    /// declines), plain, tagged or RESP (a line long enough for the parsed
    /// path is over the pre-AUTH limit); PING is allowed, its arity checked.
    @Test func beforeAuthOnlyTheAllowedCommandsPass() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-token-\(UUID().uuidString.prefix(8))")
        try Data("gate-token\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        defer { try? FileManager.default.removeItem(at: file) }
        let daemon = try Daemon(["--auth-token-file", file.path])
        let client = try daemon.connect()
        let refusal = "NOAUTH authentication required: send AUTH <token> first (before it only HELLO, AUTH, PING, HELP and QUIT work)"
        for request in ["TAP d 10 5", "TAP d 1e1 5", "TAP d", "TAP d 1 2 3 4", "tap d 10 5 slop=2", "RECTS d 0", "SENTENCES d"] {
            #expect(try client.request(request) == ["ERR " + refusal], "\(request)")
            #expect(try client.request("@a " + request) == ["@a ERR " + refusal], "\(request) tagged")
        }
        let resp = try daemon.connect()
        resp.sendRESP([Array("TAP".utf8), Array("d".utf8), Array("10".utf8), Array("5".utf8)])
        #expect(try resp.readRESPReply() == .error(refusal))
        #expect(try client.request("PING") == ["OK PONG"])
        #expect(try client.request("PING a b") == ["ERR ARGS PING takes at most 1 argument; usage: PING [message]"])
        #expect(try client.request("TAPP d 1 2") == ["ERR UNKNOWN unknown command 'TAPP'; did you mean TAP? (HELP lists commands)"])
        #expect(try client.request("AUTH gate-token") == ["OK AUTH"])
        #expect(try client.request("TAP d 10 5") == ["ERR NODOC no document 'd' (LIST shows the documents)"])
        #expect(try client.request("TAP d") == ["ERR ARGS TAP needs 3 arguments; usage: TAP <id> <x> <y> [slop=<pt>]"])
    }

    /// A bare PUT needs its id and its text (issue 18: it said "needs 1
    /// argument", which `PUT d` then refuses too): the count says what a
    /// payload stands for.
    @Test func aBarePutSaysItNeedsTheIdAndTheText() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        let usage = "usage: PUT <id> [lang=<code>] [mode=reader|uax29] (\"text\" | {bytes} | <<WORD)"
        #expect(try client.request("PUT") == ["ERR ARGS PUT needs 2 arguments, or 1 argument before a {bytes} literal or <<WORD heredoc; \(usage)"])
        #expect(try client.request("PUT d") == ["ERR ARGS PUT needs the text: quoted, a {bytes} literal or a <<WORD heredoc"])
        #expect(try client.request("PUT d \"One.\"").last?.hasPrefix("OK PUT id=d ") == true)
    }

    // MARK: STATS

    /// `commands_processed` and `layouts_background`, from one STATS (which counts itself).
    private static func figures(on client: LineClient) throws -> (commands: Int, background: Int) {
        let reply = try client.request("STATS")
        func figure(_ name: String) throws -> Int {
            let line = try #require(reply.first { $0.hasPrefix("* \(name) ") })
            return try #require(Int(line.split(separator: " ").last ?? ""))
        }
        return (try figure("commands_processed"), try figure("layouts_background"))
    }

    /// `commands_processed` counts each request once at the gate, whichever
    /// form it came in and however it ended: answered from a plain line,
    /// read from the parsed line after the cheap reader declined, refused
    /// by the gate, or deferred for a layout made off the loop and run again.
    @Test func statsCountEachRequestOnce() throws {
        let daemon = try Daemon()
        let setup = try daemon.connect()
        let stats = try daemon.connect()
        // Over the threshold at which layouts are made off the loop thread.
        let big = String(repeating: "The lamp was warm. ", count: 600)
        func put(_ text: String) throws {
            setup.send("PUT big {\(text.utf8.count)}\n\(text)\n")
            #expect(try setup.readReply().last?.hasPrefix("OK PUT id=big ") == true)
        }
        try put(big)
        #expect(try setup.request("VIEW big width=300 default=yes").last?.hasPrefix("OK VIEW id=big ") == true)

        let plain = try daemon.connect()
        let resp = try daemon.connect()
        var before = try Self.figures(on: stats)
        let requests = ["TAP big 20 10", "@t TAP big 20 10", "TAP big 2e1 10", "TAP big 20 10" + Self.padding, "TAP big", "NOPE", "PING"]
        for request in requests { _ = try plain.request(request) }
        resp.sendRESP(["TAP", "big", "20", "10"].map { Array($0.utf8) })
        _ = try resp.readRESPReply()
        var after = try Self.figures(on: stats)
        #expect(after.commands - before.commands == requests.count + 1 + 1)  // and the STATS

        // Deferred: a new revision of a large document, so that the first
        // TAP of each form waits for its layout off the loop and is run
        // again; counted once, and answered as the TAP after it.
        for (index, form) in ["plain", "tagged", "parsed", "resp"].enumerated() {
            try put(index % 2 == 0 ? big.replacingOccurrences(of: "lamp", with: "book") : big)
            before = try Self.figures(on: stats)
            var replies: [String] = []
            for _ in 0..<2 {
                switch form {
                case "resp":
                    resp.sendRESP(["TAP", "big", "20", "10"].map { Array($0.utf8) })
                    replies.append(try #require(try resp.readRESPReply()).description)
                case "tagged": replies.append(try plain.request("@d TAP big 20 10").joined(separator: "\n"))
                case "parsed": replies.append(try plain.request("TAP big 20 10" + Self.padding).joined(separator: "\n"))
                default: replies.append(try plain.request("TAP big 20 10").joined(separator: "\n"))
                }
            }
            after = try Self.figures(on: stats)
            #expect(after.background == before.background + 1, "\(form): the first TAP waited for a layout")
            #expect(after.commands - before.commands == 2 + 1, "\(form)")  // two TAPs and the STATS
            #expect(replies[0] == replies[1], "\(form)")
            #expect(replies[0].contains("TAP hit sentence=0 "), "\(form): \(replies[0])")
        }
    }
}
