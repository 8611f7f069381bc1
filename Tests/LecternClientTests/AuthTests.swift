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

    @Test func commandsNeedAuthFirst() async throws {
        let file = try Self.tokenFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let daemon = try LiveDaemon(arguments: ["--auth-token-file", file])
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
        var daemon = try LiveDaemon(arguments: ["--auth-token-file", file])
        let port = daemon.port
        let lectern = try await daemon.connect(reconnect: ReconnectPolicy(initialDelay: .milliseconds(50), maximumAttempts: 100))
        let states = lectern.connectionEvents()
        try await lectern.authenticate(token: Self.token)
        daemon.stop()
        daemon = try LiveDaemon(port: port, arguments: ["--auth-token-file", file])
        for await event in states {
            if case .reconnected(let failures) = event {
                #expect(failures.isEmpty)
                break
            }
        }
        #expect(try await lectern.list().isEmpty)
    }
}
