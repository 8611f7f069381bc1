// NodeListTests.swift: a connection given several nodes, connecting and failing over among live daemons.

import Foundation
import Testing
@testable import LecternClient
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct NodeListTests {
    /// The first node is down: the connection is made to the next one,
    /// and says so.
    @Test func connectsToTheFirstNodeThatAnswers() async throws {
        let dead = try ClosedPort()
        let nodeB = try LiveDaemon()
        let lectern = try await LecternConnection.connect(nodes: [dead.endpoint, nodeB.endpoint], timeout: .seconds(5))
        #expect(lectern.endpoint == nodeB.endpoint)
        #expect(lectern.nodes == [dead.endpoint, nodeB.endpoint])
        try await lectern.put("doc", text: "Written through the second node.")
        #expect(try await nodeB.connect().stats().documents == 1)
    }

    /// No node answers: the error names every node tried, and why.
    @Test func onlyDeadNodesFailTheConnectNamingThem() async throws {
        let first = try ClosedPort()
        let second = try ClosedPort()
        do {
            _ = try await LecternConnection.connect(nodes: [first.endpoint, second.endpoint], timeout: .seconds(5))
            Issue.record("connected to a list of dead nodes")
        } catch LecternError.connectionFailed(let reason) {
            #expect(reason.hasPrefix("no node answered: "))
            #expect(reason.contains("\(first.endpoint): "))
            #expect(reason.contains("\(second.endpoint): "))
        }
    }

    /// Node A is killed under a watcher: the connection moves to B by
    /// itself, `prepare` puts the document there, the view and watch are
    /// restored, and a tap made on B by another reader reaches the watcher
    /// in the watcher's own view.
    @Test func failsOverToTheNextNodeAndKeepsWatching() async throws {
        let nodeA = try LiveDaemon()
        let nodeB = try LiveDaemon()
        let text = "We read this together. Each in our own view. Taps travel."
        let policy = ReconnectPolicy(initialDelay: .milliseconds(50), maximumAttempts: 100) { lectern in
            try await lectern.put("shared", text: text, language: "en")
        }
        let watcher = try await LecternConnection.connect(
            nodes: [nodeA.endpoint, nodeB.endpoint], timeout: .seconds(5), reconnect: policy)
        #expect(watcher.endpoint == nodeA.endpoint)
        let states = watcher.connectionEvents()
        try await watcher.put("shared", text: text, language: "en")
        try await watcher.view("shared", ViewOptions(width: 150, size: 20, font: "DejaVu Sans"))
        try await watcher.watch("shared")
        let events = watcher.events(for: "shared")

        nodeA.killAbruptly()
        var seen: [ConnectionEvent] = []
        for await event in states {
            seen.append(event)
            if case .reconnected = event { break }
        }
        #expect(seen.first == .lost(.connectionLost))
        #expect(seen.last == .reconnected(failures: []))
        #expect(watcher.endpoint == nodeB.endpoint)

        let reader = try await nodeB.connect()
        // The watcher's WATCH is back on B: the reader makes the second watcher.
        #expect(try await reader.watch("shared") == 2)
        try await reader.view("shared", ViewOptions(width: 300, font: "DejaVu Sans"))
        guard case .hit(let readers, _, _, _) = try await reader.tap("shared", at: Point(x: 20, y: 10)) else {
            Issue.record("the reader's tap on B missed")
            return
        }
        var iterator = events.makeAsyncIterator()
        let event = await iterator.next()
        guard case .tap(0, let range, let rects, _) = event?.kind else {
            Issue.record("expected a TAP of sentence 0, got \(String(describing: event))")
            return
        }
        // The same sentence tapped by the watcher itself on B: the event
        // came in the watcher's geometry, not the reader's.
        guard case .hit(let own, _, _, _) = try await watcher.tap("shared", at: Point(x: 20, y: 10)) else {
            Issue.record("the watcher's own tap missed")
            return
        }
        #expect(own.sentence.content == range)
        #expect(own.rects == rects)
        #expect(readers.rects != rects)
    }

    /// Round-robin: the node after the lost one is tried first, not the
    /// head of the list (which is dead here, and is tried last).
    @Test func reconnectStartsWithTheNodeAfterTheLostOne() async throws {
        let dead = try ClosedPort()
        let nodeB = try LiveDaemon()
        let nodeC = try LiveDaemon()
        let lectern = try await LecternConnection.connect(
            nodes: [dead.endpoint, nodeB.endpoint, nodeC.endpoint], timeout: .seconds(5),
            reconnect: ReconnectPolicy(initialDelay: .milliseconds(50), maximumAttempts: 100))
        #expect(lectern.endpoint == nodeB.endpoint)
        let states = lectern.connectionEvents()
        nodeB.killAbruptly()
        var attempts = 0
        for await event in states {
            if case .reconnecting = event { attempts += 1 }
            if case .reconnected = event { break }
        }
        #expect(attempts == 1)
        #expect(lectern.endpoint == nodeC.endpoint)
        #expect(try await lectern.ping("on C") == "on C")
    }

    /// Every node gone: `maximumAttempts` counts rounds through the list,
    /// then the connection closes.
    @Test func givesUpAfterMaximumAttemptsRoundsOfAllNodes() async throws {
        let nodeA = try LiveDaemon()
        let nodeB = try LiveDaemon()
        let lectern = try await LecternConnection.connect(
            nodes: [nodeA.endpoint, nodeB.endpoint], timeout: .seconds(5),
            reconnect: ReconnectPolicy(initialDelay: .milliseconds(10), maximumAttempts: 3))
        let states = lectern.connectionEvents()
        nodeB.killAbruptly()
        nodeA.killAbruptly()
        var attempts = 0
        var last: ConnectionEvent?
        for await event in states {
            if case .reconnecting = event { attempts += 1 }
            last = event
        }
        #expect(attempts == 3)
        #expect(last == .closed(.connectionLost))
        await #expect(throws: LecternError.connectionLost) { try await lectern.ping() }
    }
}

extension LiveDaemon {
    /// This daemon's TCP address.
    var endpoint: Endpoint { .tcp(host: "127.0.0.1", port: port) }
}

/// A loopback port that refuses connections: bound, never listening, and
/// held (so no other test's daemon can take it) until released.
final class ClosedPort {
    let port: UInt16
    private let descriptor: Int32

    struct Failure: Error {}

    var endpoint: Endpoint { .tcp(host: "127.0.0.1", port: port) }

    init() throws {
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw Failure() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw Failure()
        }
        descriptor = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }
}
