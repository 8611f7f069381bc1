// AuthLimitTests.swift: failed AUTHs are limited per client address across
// connections, with a delay that doubles; HELLO … AUTH counts too; the
// number of connections that have not authenticated is limited.

import Foundation
import Testing
@testable import LecternServer

@Suite struct AuthFailureTableTests {
    @Test func theDelayStartsAfterTheFreeFailuresAndDoublesUpToTheCap() {
        var table = AuthFailureTable()
        for _ in 1..<AuthFailureTable.freeFailures {
            #expect(table.recordFailure(of: "192.0.2.7", now: 1000) == nil)
            #expect(table.remainingDelay(for: "192.0.2.7", now: 1000) == nil)
        }
        #expect(table.recordFailure(of: "192.0.2.7", now: 1000) == 1000)
        #expect(table.remainingDelay(for: "192.0.2.7", now: 1000) == 1000)
        #expect(table.remainingDelay(for: "192.0.2.7", now: 1999) == 1)
        #expect(table.remainingDelay(for: "192.0.2.7", now: 2000) == nil)
        // Another address is not affected.
        #expect(table.remainingDelay(for: "192.0.2.8", now: 1000) == nil)
        var delays: [UInt64] = []
        var now: UInt64 = 2000
        for _ in 0..<9 {
            delays.append(table.recordFailure(of: "192.0.2.7", now: now) ?? 0)
            now += delays.last ?? 0
        }
        #expect(delays == [2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000])
    }

    @Test func aSuccessForgetsTheAddress() {
        var table = AuthFailureTable()
        for _ in 0..<AuthFailureTable.freeFailures { table.recordFailure(of: "unix", now: 0) }
        #expect(table.remainingDelay(for: "unix", now: 10) != nil)
        table.recordSuccess(of: "unix")
        #expect(table.remainingDelay(for: "unix", now: 10) == nil)
        #expect(table.failures(of: "unix") == 0)
        #expect(table.recordFailure(of: "unix", now: 20) == nil)
    }

    @Test func anAddressWithoutFailuresForAWhileIsForgotten() {
        var table = AuthFailureTable()
        for _ in 0..<AuthFailureTable.freeFailures + 3 { table.recordFailure(of: "192.0.2.7", now: 0) }
        #expect(table.remainingDelay(for: "192.0.2.7", now: AuthFailureTable.memory - 1) == nil)  // its delay is over
        #expect(table.failures(of: "192.0.2.7") == AuthFailureTable.freeFailures + 3)  // but its count is kept
        // Past the memory, another address's failure clears it out.
        table.recordFailure(of: "192.0.2.8", now: AuthFailureTable.memory)
        #expect(table.failures(of: "192.0.2.7") == 0)
        #expect(table.count == 1)
    }

    @Test func theTableIsBoundedAndForgetsTheLeastRecentlyFailedFirst() {
        var table = AuthFailureTable()
        table.recordFailure(of: "keep", now: 0)
        table.recordFailure(of: "old", now: 0)
        for index in 0..<(AuthFailureTable.capacity - 3) { table.recordFailure(of: "a\(index)", now: 1) }
        table.recordFailure(of: "keep", now: 2)  // failed again: now among the most recent
        #expect(table.count == AuthFailureTable.capacity - 1)
        for index in 0..<50 { table.recordFailure(of: "b\(index)", now: 3) }
        #expect(table.count == AuthFailureTable.capacity)
        #expect(table.failures(of: "old") == 0)
        #expect(table.failures(of: "keep") == 2)
        #expect(table.failures(of: "b49") == 1)
        // Many more addresses than it holds: it stays at its capacity.
        for index in 0..<(AuthFailureTable.capacity * 5) { table.recordFailure(of: "c\(index)", now: 4) }
        #expect(table.count == AuthFailureTable.capacity)
    }

    @Test func peersAreCountedByAddressIPv6ByTheir64AndUnixSocketsTogether() {
        #expect(AuthFailureTable.address(ofPeer: "127.0.0.1:51234") == "127.0.0.1")
        #expect(AuthFailureTable.address(ofPeer: "[2001:db8:1:2:3:4:5:6]:7878") == "2001:db8:1:2::/64")
        #expect(AuthFailureTable.address(ofPeer: "[2001:db8:1:2::9]:1") == "2001:db8:1:2::/64")
        #expect(AuthFailureTable.address(ofPeer: "[::ffff:192.0.2.7]:1") == "192.0.2.7")
        #expect(AuthFailureTable.address(ofPeer: "unix") == "unix")
        #expect(AuthFailureTable.describe("unix") == "the Unix socket")
    }
}

@Suite struct AuthLimitTests {
    private func tokenFile(_ token: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-token-\(UUID().uuidString.prefix(8))").path
        try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }

    private static let delayed = "ERR AUTH too many failed attempts from 127.0.0.1; retry in "

    /// The seconds a delayed-AUTH refusal asks to wait, or nil for another reply.
    private func retrySeconds(_ reply: [String]) -> Int? {
        guard reply.count == 1, let line = reply.first, line.hasPrefix(Self.delayed), line.hasSuffix(" s") else { return nil }
        return Int(line.dropFirst(Self.delayed.count).dropLast(2))
    }

    /// Sends wrong tokens until one is checked again (and so fails), each
    /// refusal before it asking to wait at most `bound` seconds.
    private func waitOutTheDelay(on client: LineClient, bound: Int) throws {
        for _ in 0..<200 {
            let reply = try client.request("AUTH guess")
            if reply == ["ERR AUTH wrong token"] { return }
            let seconds = retrySeconds(reply)
            #expect(seconds.map { (1...bound).contains($0) } == true, "\(reply)")
            usleep(100_000)
        }
        Issue.record("the delay never ended")
    }

    @Test func failuresFromOneAddressDelayEveryConnectionFromItAndTheRightTokenToo() throws {
        let file = try tokenFile("s3cret")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let daemon = try Daemon(["--auth-token-file", file])
        let reader = try daemon.connect()
        #expect(try reader.request("AUTH s3cret") == ["OK AUTH"])
        // A client that reconnects to get around the per-connection limit.
        for _ in 0..<AuthFailureTable.freeFailures {
            #expect(try daemon.connect().request("AUTH guess") == ["ERR AUTH wrong token"])
        }
        // Each further failure doubles the delay: 1 s, 2 s, then 4 s.
        let client = try daemon.connect()
        try waitOutTheDelay(on: client, bound: 1)
        try waitOutTheDelay(on: client, bound: 2)
        let refusal = try client.request("AUTH s3cret")
        #expect(retrySeconds(refusal).map { (1...4).contains($0) } == true, "\(refusal)")
        // On any connection from the address.
        #expect(retrySeconds(try daemon.connect().request("AUTH s3cret")) != nil)
        #expect(daemon.log.contains("event=auth_delayed_address address=127.0.0.1"))
        // Everything else keeps working meanwhile.
        #expect(try client.request("PING") == ["OK PONG"])
        #expect(try client.request("LIST").last?.hasPrefix("ERR NOAUTH") == true)
        #expect(try reader.request("PUT d \"Still served.\"").last?.hasPrefix("OK PUT") == true)
        // When the delay has passed, the right token gets in ...
        var accepted = false
        for _ in 0..<200 where !accepted {
            let reply = try client.request("AUTH s3cret")
            accepted = reply == ["OK AUTH"]
            if !accepted {
                #expect(retrySeconds(reply).map { (1...4).contains($0) } == true, "\(reply)")
                usleep(100_000)
            }
        }
        #expect(accepted)
        #expect(try client.request("GET d").dropFirst().first == "Still served.")
        // ... and the address's failures are forgotten.
        #expect(try daemon.connect().request("AUTH guess") == ["ERR AUTH wrong token"])
    }

    @Test func helloWithAuthCountsAsAnAttempt() throws {
        let file = try tokenFile("s3cret")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let daemon = try Daemon(["--auth-token-file", file])
        let client = try daemon.connect()
        for _ in 0..<AccessControl.freeAttempts {
            #expect(try client.request("HELLO 1 AUTH default guess") == ["ERR AUTH wrong token"])
        }
        #expect(try client.request("HELLO 1 AUTH default s3cret") == ["ERR AUTH too many failed attempts; wait a second between tries"])
        #expect(daemon.log.contains("via=HELLO"))
        #expect(try daemon.connect().request("HELLO 1 AUTH default s3cret").last?.hasPrefix("OK HELLO") == true)
    }

    @Test func connectionsThatHaveNotAuthenticatedAreLimited() throws {
        let file = try tokenFile("s3cret")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let daemon = try Daemon(["--auth-token-file", file, "--max-unauthenticated", "3"])
        let waiting = try (0..<3).map { _ in try daemon.connect() }
        for client in waiting { #expect(try client.request("PING") == ["OK PONG"]) }
        let refused = try daemon.connect()
        #expect(try refused.readLine() == "ERR MAXCLIENTS the daemon holds at most 3 connections that have not authenticated (--max-unauthenticated); try again later")
        #expect(try refused.waitForClose())
        #expect(daemon.log.contains("unauthenticated_limit=3"))
        // Authenticating frees a place ...
        #expect(try waiting[0].request("AUTH s3cret") == ["OK AUTH"])
        let fourth = try daemon.connect()
        #expect(try fourth.request("PING") == ["OK PONG"])
        #expect(try daemon.connect().readLine()?.hasPrefix("ERR MAXCLIENTS") == true)
        // ... and so does closing.
        #expect(try waiting[1].request("QUIT") == ["OK BYE"])
        #expect(try waiting[1].waitForClose())
        let fifth = try daemon.connect()
        #expect(try fifth.request("AUTH s3cret") == ["OK AUTH"])
        // Authenticated connections do not count: two wait, so one more may connect.
        #expect(try waiting[0].request("LIST").last == "OK LIST 0")
        #expect(try fifth.request("LIST").last == "OK LIST 0")
        #expect(try daemon.connect().request("PING") == ["OK PONG"])
    }

    /// The slots of --max-unauthenticated cannot be held forever: a
    /// connection that has not authenticated --auth-timeout seconds after
    /// it connected is told so and closed; one that authenticated stays.
    /// (The test waits for the closes it expects; it measures no time.)
    @Test func connectionsThatDoNotAuthenticateInTimeAreClosed() throws {
        let file = try tokenFile("s3cret")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let daemon = try Daemon(["--auth-token-file", file, "--auth-timeout", "2", "--max-unauthenticated", "2"])
        let closing = "ERR NOAUTH closing: no AUTH within 2 s of connecting (--auth-timeout)"
        let silent = try daemon.connect()
        let pinger = try daemon.connect()
        pinger.sendLine("PING")
        #expect(try silent.readLine() == closing)
        #expect(try silent.waitForClose())
        // PING is not authentication: that connection is closed too.
        var lines: [String] = []
        while let line = try pinger.readLine() { lines.append(line) }
        #expect(lines.last == closing)
        #expect(lines.dropLast().allSatisfy { $0 == "OK PONG" })
        #expect(daemon.log.contains("event=connection_auth_timeout"))
        // Both places are free again, and an authenticated connection
        // outlives the timeout: it still works once a later connection,
        // which did not authenticate, has been closed for it.
        let authenticated = try daemon.connect()
        authenticated.sendLine("AUTH s3cret")
        let later = try daemon.connect()
        #expect(try authenticated.readReply() == ["OK AUTH"])
        #expect(try later.readLine() == closing)
        #expect(try authenticated.request("LIST").last == "OK LIST 0")
    }

    @Test func theLimitIsAFlagWithADefault() throws {
        #expect(ServerConfiguration().maximumUnauthenticatedConnections == 128)
        guard case .run(let config) = try ServerConfiguration.parse(arguments: [], environment: ["LECTERN_MAX_UNAUTHENTICATED": "7"]) else {
            Issue.record("not a run")
            return
        }
        #expect(config.maximumUnauthenticatedConnections == 7)
        #expect(throws: ServerConfiguration.UsageError(description: "--max-unauthenticated must be a whole number from 1 to 1000000, not '0'")) {
            try ServerConfiguration.parse(arguments: ["--max-unauthenticated", "0"], environment: [:])
        }
        #expect(ServerConfiguration.helpText().contains("--max-unauthenticated N"))
    }

    @Test func withoutATokenThereIsNoSuchLimit() throws {
        let daemon = try Daemon(["--max-unauthenticated", "1"])
        let clients = try (0..<3).map { _ in try daemon.connect() }
        for client in clients { #expect(try client.request("PING") == ["OK PONG"]) }
    }
}
