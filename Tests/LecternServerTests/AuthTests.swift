// AuthTests.swift: with a token configured, nothing but the basics works before AUTH.

import Foundation
import Testing
@testable import LecternServer

@Suite struct AuthTests {
    private func tokenFile(_ token: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-token-\(UUID().uuidString.prefix(8))")
        try Data((token + "\n").utf8).write(to: url)
        // Only the owner may read it, or the daemon refuses to start.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url
    }

    @Test func authIsRequiredAndEnforced() throws {
        let file = try tokenFile("correct-horse-battery-staple")
        defer { try? FileManager.default.removeItem(at: file) }
        let daemon = try Daemon(["--auth-token-file", file.path])
        #expect(daemon.log.contains("auth=token"))
        let client = try daemon.connect()
        #expect(try client.request("PING") == ["OK PONG"])
        #expect(try client.request("HELLO").last?.hasPrefix("OK HELLO") == true)
        #expect(try client.request("HELP").last?.hasSuffix("commands; HELP <command> for one") == true)
        for blocked in ["PUT d \"x\"", "LIST", "GET d", "STATS", "TYPE d", "WATCH d"] {
            #expect(try client.request(blocked).last?.hasPrefix("ERR NOAUTH authentication required") == true, "\(blocked)")
        }
        #expect(try client.request("AUTH wrong") == ["ERR AUTH wrong token"])
        #expect(try client.request("AUTH \"correct-horse-battery-staple\"") == ["OK AUTH"])
        #expect(try client.request("PUT d \"Now it works.\"").last?.hasPrefix("OK PUT") == true)
        // Another connection is not authenticated by this one.
        #expect(try daemon.connect().request("LIST").last?.hasPrefix("ERR NOAUTH") == true)
        #expect(daemon.log.contains("event=auth_failed"))
        try? FileManager.default.removeItem(at: file)
    }

    @Test func failedAttemptsAreRateLimitedThenTheConnectionIsClosed() throws {
        let file = try tokenFile("s3cret")
        defer { try? FileManager.default.removeItem(at: file) }
        let daemon = try Daemon(["--auth-token-file", file.path])
        let client = try daemon.connect()
        for _ in 0..<AccessControl.freeAttempts { #expect(try client.request("AUTH guess") == ["ERR AUTH wrong token"]) }
        // Straight after the third failure: refused without being checked,
        // even with the right token.
        #expect(try client.request("AUTH s3cret") == ["ERR AUTH too many failed attempts; wait a second between tries"])
        var closed = false
        for _ in 0..<(AccessControl.maximumAttempts * 3) where !closed {
            usleep(1_050_000 / 4)
            client.sendLine("AUTH guess")
            let line = try client.readLine()
            closed = line == "ERR AUTH too many failed attempts; closing"
        }
        #expect(closed)
        #expect(try client.waitForClose())
    }

    @Test func theTokenCanComeFromTheEnvironmentAndIsComparedExactly() throws {
        let access = try AccessControl(configuration: ServerConfiguration(), environment: ["LECTERN_AUTH_TOKEN": "abc"])
        #expect(access.accepts("abc"))
        #expect(!access.accepts("abcd"))
        #expect(!access.accepts("ab"))
        #expect(!access.accepts(""))
        #expect(!access.accepts("abC"))
        let none = try AccessControl(configuration: ServerConfiguration(), environment: [:])
        #expect(!none.isRequired)
        #expect(throws: Server.StartError.self) {
            try AccessControl(configuration: ServerConfiguration(), environment: ["LECTERN_AUTH_TOKEN": ""])
        }
    }

    @Test func onlyLoopbackAddressesCountAsPrivate() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "localhost"] { #expect(SocketAddress.isLoopback(host: host)) }
        for host in ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "128.0.0.1"] { #expect(!SocketAddress.isLoopback(host: host)) }
    }

    @Test func withoutATokenAuthSaysSo() throws {
        let daemon = try Daemon()
        #expect(try daemon.connect().request("AUTH x") == ["ERR AUTH this daemon requires no token; every command is allowed"])
    }
}
