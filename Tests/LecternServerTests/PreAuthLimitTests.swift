// PreAuthLimitTests.swift: with a token configured, a connection that has
// not authenticated can send only small requests; a payload is refused at
// its length line and the connection closed, before its bytes arrive.

import Foundation
import Testing
import LecternProtocol
import LecternServer
import LecternServerHarness

@Suite struct PreAuthLimitTests {
    static let token = "pre-auth-s3cret"
    static let small = RequestDecoder.maximumUnauthenticatedRequestBytes

    /// A daemon requiring `token`, read from a file only its owner can read.
    private func daemon(token: String = Self.token) throws -> (Daemon, URL) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-token-\(UUID().uuidString.prefix(8))")
        guard FileManager.default.createFile(atPath: url.path, contents: Data((token + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600])
        else { throw LineClient.Failure(description: "cannot write \(url.path)") }
        do {
            return (try Daemon(["--auth-token-file", url.path]), url)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    private func resp(_ elements: [String]) -> [UInt8] {
        var bytes = Array("*\(elements.count)\r\n".utf8)
        for element in elements { bytes += Array("$\(element.utf8.count)\r\n\(element)\r\n".utf8) }
        return bytes
    }

    /// What an unauthenticated client sends (only the start of each: the
    /// daemon must answer without waiting for the rest), and the start of
    /// the one line it gets back before the connection is closed.
    static let refused: [(name: String, bytes: [UInt8], reply: String)] = [
        ("literal", Array("@big PUT d {15000000}\r\n".utf8),
         "@big ERR NOAUTH payloads ({N} literals, <<WORD heredocs) are refused before AUTH, and requests are at most 4096 bytes; send AUTH <token> first; closing"),
        ("small literal", Array("PUT d {5}\r\n".utf8), "ERR NOAUTH payloads ({N} literals"),
        ("heredoc", Array("PUT d <<END\r\n".utf8), "ERR NOAUTH payloads ({N} literals"),
        ("RESP bulk", Array("*3\r\n$3\r\nPUT\r\n$1\r\nd\r\n$15000000\r\n".utf8),
         "-NOAUTH a bulk string before AUTH is at most 4096 bytes; send AUTH first; closing"),
        ("RESP array", Array("*1000000\r\n".utf8), "-NOAUTH a request before AUTH has at most 10 elements; send AUTH first; closing"),
        ("long line", Array(("PUT d \"" + String(repeating: "a", count: small) + "\"\r\n").utf8),
         "ERR NOAUTH a request line before AUTH is at most 4096 bytes; send AUTH first; closing"),
        ("unterminated line", [UInt8](repeating: UInt8(ascii: "a"), count: 60_000), "ERR NOAUTH a request line before AUTH"),
    ]

    @Test func unauthenticatedPayloadsAreRefusedAtTheirLengthLineAndClosed() throws {
        let (daemon, file) = try daemon()
        defer { try? FileManager.default.removeItem(at: file) }
        for (name, bytes, reply) in Self.refused {
            let client = try daemon.connect()
            #expect(client.send(bytes: bytes), "\(name)")
            let line = try client.readLine()
            #expect(line?.hasPrefix(reply) == true, "\(name): \(line ?? "closed without a reply")")
            #expect(try client.waitForClose(), "\(name)")
        }
        // Small requests still work before AUTH, and the daemon serves others.
        let other = try daemon.connect()
        #expect(try other.request("PING") == ["OK PONG"])
        #expect(try other.request("PUT d \"x\"").last?.hasPrefix("ERR NOAUTH authentication required") == true)
        #expect(daemon.log.contains("connection_protocol_error"))
    }

    @Test func afterAuthTheSameRequestsWork() throws {
        let (daemon, file) = try daemon()
        defer { try? FileManager.default.removeItem(at: file) }
        let client = try daemon.connect()
        #expect(try client.request("AUTH \(Self.token)") == ["OK AUTH"])
        let text = String(repeating: "Sentence one. ", count: 20_000)
        client.send("PUT literal {\(text.utf8.count)}\r\n\(text)\r\n")
        #expect(try client.readReply().last?.hasPrefix("OK PUT id=literal") == true)
        client.send("PUT heredoc <<END\r\n" + String(repeating: "a\r\n", count: 10_000) + "END\r\n")
        #expect(try client.readReply().last?.hasPrefix("OK PUT id=heredoc") == true)
        let line = String(repeating: "b", count: 10 * Self.small)
        #expect(try client.request("PUT line \"\(line)\"").last?.hasPrefix("OK PUT id=line") == true)
        client.send(bytes: resp(["PUT", "bulk", line]))
        #expect(try client.readLine()?.hasPrefix("+PUT id=bulk") == true)
        let heredoc = Array((String(repeating: "a\n", count: 9_999) + "a").utf8)
        client.sendLine("GET heredoc")
        #expect(try client.readLine() == "* {\(heredoc.count)}")
        #expect(try client.readBytes(count: heredoc.count) == heredoc)
        #expect(try client.readReply().last?.hasPrefix("OK GET id=heredoc") == true)
    }

    /// AUTH and a literal in one write: the literal, already received when
    /// AUTH succeeds, is read with the full limits (and needs no line end
    /// after its bytes to be answered).
    @Test func bytesSentWithAuthAreReadWithTheFullLimits() throws {
        let (daemon, file) = try daemon()
        defer { try? FileManager.default.removeItem(at: file) }
        let client = try daemon.connect()
        client.send("AUTH \(Self.token)\r\nPUT d {5}\r\nHello")
        #expect(try client.readLine() == "OK AUTH")
        #expect(try client.readLine()?.hasPrefix("OK PUT id=d revision=1 bytes=5") == true)
        let got = try client.request("GET d")
        #expect(got.prefix(2) == ["* {5}", "Hello"])
        #expect(got.last?.hasPrefix("OK GET id=d revision=1 bytes=5") == true)
        // HELLO's AUTH raises the limits as well.
        let greeted = try daemon.connect()
        greeted.send("HELLO 1 AUTH default \(Self.token)\r\nPUT e <<END\r\nHi.\r\nEND\r\n")
        #expect(try greeted.readLine()?.hasPrefix("OK HELLO") == true)
        #expect(try greeted.readLine()?.hasPrefix("OK PUT id=e") == true)
    }

    @Test func aRESPClientAuthenticatesThenSendsLargeRequests() throws {
        let (daemon, file) = try daemon()
        defer { try? FileManager.default.removeItem(at: file) }
        let client = try daemon.connect()
        let big = String(repeating: "c", count: 100_000)
        // AUTH and a large PUT in one write.
        client.send(bytes: resp(["AUTH", Self.token]) + resp(["PUT", "r", big]))
        #expect(try client.readLine() == "+AUTH")
        #expect(try client.readLine()?.hasPrefix("+PUT id=r revision=1 bytes=100000") == true)
        // redis-cli: refused before AUTH, served with -a.
        func cli(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["redis-cli", "-p", String(daemon.port)] + arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        #expect(try cli(["PUT", "cli", big]).hasPrefix("NOAUTH a bulk string before AUTH is at most 4096 bytes"))
        let put = try cli(["--no-auth-warning", "-a", Self.token, "PUT", "cli", big])
        #expect(put.hasPrefix("PUT id=cli revision=") && put.contains(" bytes=100000 "), "\(put)")
    }

    /// The corpus entries for the fuzzing daemon that requires a token
    /// (see ``Fuzzing/tokenDaemonPrefix``), sent to a live daemon with that
    /// token (not through ``Fuzzing``, which FuzzCorpusTests drives and which
    /// is for one thread), get what they are there to provoke.
    @Test func theFuzzCorpusEntriesForTheTokenDaemonProvokeWhatTheyShould() throws {
        let (daemon, file) = try daemon(token: "fuzz")
        defer { try? FileManager.default.removeItem(at: file) }
        func replay(_ name: String) throws -> String {
            let input = [UInt8](try Data(contentsOf: FuzzCorpusTests.corpus.appendingPathComponent(name)))
            #expect(input.starts(with: Fuzzing.tokenDaemonPrefix), "\(name)")
            let client = try daemon.connect()
            client.send(bytes: Array(input.dropFirst(Fuzzing.tokenDaemonPrefix.count)))
            client.shutdownWriting()
            var lines: [String] = []
            while let line = try client.readLine() { lines.append(line) }
            return lines.map { $0 + "\r\n" }.joined()
        }
        for (name, last) in [
            ("preauth-literal", "ERR NOAUTH payloads"), ("preauth-heredoc", "@h ERR NOAUTH payloads"),
            ("preauth-resp-bulk", "-NOAUTH a bulk string"), ("preauth-resp-array", "-NOAUTH a request before AUTH"),
            ("preauth-long-line", "ERR NOAUTH a request line"),
        ] {
            let lines = try replay(name).split(separator: "\r\n")
            #expect(lines.last?.hasPrefix(last) == true, "\(name): \(lines)")
        }
        #expect(try replay("preauth-auth-then-literal").hasPrefix("OK AUTH\r\nOK PUT id=d revision="))
        #expect(try replay("preauth-resp-auth-then-bulk").hasPrefix("+AUTH\r\n+PUT id=r revision="))
    }
}
