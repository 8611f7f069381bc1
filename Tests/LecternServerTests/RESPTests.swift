// RESPTests.swift: Redis clients (redis-cli, the `redis` Python library,
// raw RESP) against a live daemon.

import Foundation
import Testing

@Suite struct RESPTests {
    /// Runs a program to completion and returns its exit status and output.
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func redisCliIsAClient() throws {
        let daemon = try Daemon()
        let port = String(daemon.port)
        func cli(_ arguments: String...) throws -> String {
            let result = try run(["redis-cli", "-p", port] + arguments)
            #expect(result.status == 0)
            return result.output
        }
        #expect(try cli("PING") == "PONG\n")
        #expect(try cli("PUT", "doc", "Dr. Smith arrived. He was late!").hasPrefix("PUT id=doc revision=1 bytes=31"))
        #expect(try cli("VIEW", "doc", "width=200", "default=yes").contains("lines=2"))
        // TAP from a connection with no view of its own uses the default view.
        #expect(try cli("TAP", "doc", "20", "30") == """
            sentence 1 range=19..31 content=19..31 paragraph=0 text="He was late!"
            rects 155.18,0,23.24,19.79;0,19.79,77.66,19.79
            outline 178.43,0;178.43,19.79;155.18,19.79;155.18,0|77.66,19.79;77.66,39.58;0,39.58;0,19.79
            TAP hit sentence=1 offset=24 side=trailing distance=0

            """)
        #expect(try cli("SENTENCES", "doc").hasSuffix("SENTENCES 2 of 2\n"))
        #expect(try cli("NOPE") == "UNKNOWN unknown command 'NOPE' (HELP lists commands)\n\n")
    }

    @Test func thePythonRedisLibraryIsAClient() throws {
        let daemon = try Daemon()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/redis_client_test.py").path
        let result = try run(["python3", script, String(daemon.port)])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasSuffix("ok\n"))
    }

    /// RESP has no quoting: an element shaped `key=value` whose key the
    /// command does not take is text (a PUT's text, HELLO's token), and one
    /// that can only have been meant as an option is refused with the
    /// nearest key, as on a line.
    @Test func respElementsWithAnEqualsSignAreTextUnlessTheCommandTakesTheKey() throws {
        let daemon = try Daemon()
        func resp(_ elements: String...) -> String {
            "*\(elements.count)\r\n" + elements.map { "$\($0.utf8.count)\r\n\($0)\r\n" }.joined()
        }
        let client = try daemon.connect()
        client.send(resp("PUT", "d", "E=mc² changed it. x=1 is the answer."))
        #expect(try client.readLine()?.hasPrefix("+PUT id=d ") == true)
        client.send(resp("GET", "d"))
        var reply: [String] = []
        while let line = try client.readLine() {
            reply.append(line)
            if line.hasPrefix("E=") { break }
        }
        #expect(reply.last == "E=mc² changed it. x=1 is the answer.")
        let other = try daemon.connect()
        other.send(resp("PUT", "e", "x=1 is the answer.", "lang=fr"))
        #expect(try other.readLine()?.hasPrefix("+PUT id=e ") == true)
        other.send(resp("GET", "e"))
        var facts = ""
        while let line = try other.readLine() {
            if line.contains("lang=") { facts = line; break }
        }
        #expect(facts.contains("lang=fr"))
        other.send(resp("VIEW", "e", "width=200", "sze=30"))
        #expect(try other.readLine()?.hasPrefix("-ARGS unknown option 'sze' for VIEW; did you mean size=?") == true)
    }

    @Test func inlineAndRESPRequestsAlternateOnOneConnection() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        client.send("PING\r\n*2\r\n$4\r\nPING\r\n$5\r\nhello\r\n@t PING\r\n*1\r\n$5\r\nHELLO\r\n")
        #expect(try client.readLine() == "OK PONG")
        #expect(try client.readLine() == "+\"hello\"")
        #expect(try client.readLine() == "@t OK PONG")
        #expect(try client.readLine() == "*18")
    }

    @Test func malformedRESPGetsOneErrorAndAClose() throws {
        let daemon = try Daemon(["--max-payload-bytes", "100"])
        let cases: [(String, String)] = [
            ("*2\r\n$3\r\nGET\r\n:1\r\n", "-SYNTAX RESP protocol error: expected '$' (requests are flat arrays of bulk strings), got ':'; closing"),
            ("*2\r\n*1\r\n", "-SYNTAX RESP protocol error: expected '$' (requests are flat arrays of bulk strings), got '*'; closing"),
            ("*x\r\n", "-SYNTAX RESP protocol error: invalid multibulk length; closing"),
            ("*9999999\r\n", "-SYNTAX RESP protocol error: multibulk length 9999999 is over 1048576; closing"),
            ("*1\r\n$1000\r\n", "-PAYLOAD RESP bulk string of 1000 bytes is over the 100-byte payload limit (--max-payload-bytes); closing"),
            ("*1\r\n$-5\r\n", "-SYNTAX RESP protocol error: invalid bulk length; closing"),
            ("*1\r\n$4\r\nPINGxx", "-SYNTAX RESP protocol error: a bulk string must end with CRLF; closing"),
        ]
        for (input, expected) in cases {
            let client = try daemon.connect()
            client.send(input)
            #expect(try client.readLine() == expected, "\(input.debugDescription)")
            #expect(try client.waitForClose())
        }
        // Not framing errors: answered, and the connection stays.
        let client = try daemon.connect()
        client.send(bytes: Array("*2\r\n$4\r\nPING\r\n$2\r\n".utf8) + [0xFF, 0xFE] + Array("\r\n*1\r\n$4\r\nPING\r\n".utf8))
        #expect(try client.readLine() == "-UTF8 argument 1 is not valid UTF-8 at byte 0")
        #expect(try client.readLine() == "+PONG")
    }
}
