// AuthTests.swift: AUTH against a daemon with a token, and its restoration on reconnect.

import Foundation
import Testing
@testable import LecternClient

@Suite struct AuthTests {
    static let token = "correct-horse-\"battery\"-staple\\"

    /// A token file for a daemon; removed by the caller.
    static func tokenFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-sdk-token-\(UUID().uuidString)").path
        try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: path))
        // Only the owner may read it, or the daemon refuses to start.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }

    /// The daemon's flags: the token, and no --auth-timeout, whose 30 s a
    /// test's steps can take when the suite's blocking tests hold the
    /// machine's two cores (the timeout itself is tested in the server's
    /// AuthLimitTests).
    static func arguments(_ file: String) -> [String] { ["--auth-token-file", file, "--auth-timeout", "0"] }

    @Test func commandsNeedAuthFirst() async throws {
        let file = try Self.tokenFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let daemon = try LiveDaemon(arguments: Self.arguments(file))
        // A request with a payload (PUT sends a literal) before AUTH is
        // refused at its length line and the connection is closed.
        let refused = try await daemon.connect()
        try await refused.ping()
        do {
            _ = try await refused.put("doc", text: "x")
            Issue.record("a PUT was accepted before AUTH")
        } catch let error as LecternError {
            #expect(error.code == .authenticationRequired)
        }
        let lectern = try await daemon.connect()
        try await lectern.ping()
        do {
            _ = try await lectern.list()
        } catch let error as LecternError {
            #expect(error.code == .authenticationRequired)
        }
        do {
            try await lectern.authenticate(token: "wrong")
            Issue.record("a wrong token was accepted")
        } catch let error as LecternError {
            #expect(error.code == .authenticationFailed)
        }
        try await lectern.authenticate(token: Self.token)
        #expect(try await lectern.put("doc", text: "Now it works.").sentences == 1)
    }

    @Test func reconnectRepeatsAuth() async throws {
        let file = try Self.tokenFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        var daemon = try LiveDaemon(arguments: Self.arguments(file))
        let port = daemon.port
        let lectern = try await daemon.connect(reconnect: ReconnectPolicy(initialDelay: .milliseconds(50), maximumAttempts: 100))
        let states = lectern.connectionEvents()
        try await lectern.authenticate(token: Self.token)
        daemon.stop()
        daemon = try LiveDaemon(port: port, arguments: Self.arguments(file))
        for await event in states {
            if case .reconnected(let failures) = event {
                #expect(failures.isEmpty)
                break
            }
        }
        #expect(try await lectern.list().isEmpty)
    }
}
