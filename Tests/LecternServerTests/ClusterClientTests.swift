// ClusterClientTests.swift: the SDK over lecternd --redis nodes: a watcher
// whose node is killed goes on watching through another node.

import Foundation
import LecternClient
import Testing

@Suite(.serialized) struct ClusterClientTests {
    @Test func aWatcherWhoseNodeIsKilledSeesLaterEventsFromTheOtherNodes() async throws {
        let redis = try RedisProcess()
        let nodes = try (0..<3).map { try Daemon(["--redis", redis.url, "--node-name", "n\($0)"]) }
        for node in nodes { try waitUntilWritable(node) }
        let endpoints = nodes.map { Endpoint.tcp(host: "127.0.0.1", port: $0.port) }
        let text = "We read this together. Each in our own view. Taps travel between nodes."
        // Nodes 0 and 1, in that order: node 2 is the other readers'.
        let watcher = try await LecternConnection.connect(
            nodes: Array(endpoints[0...1]), timeout: .seconds(5),
            reconnect: ReconnectPolicy(initialDelay: .milliseconds(50), maximumAttempts: 100))
        #expect(watcher.endpoint == endpoints[0])
        let states = watcher.connectionEvents()
        try await watcher.put("shared", text: text, language: "en")
        try await watcher.view("shared", ViewOptions(width: 150, size: 20, font: "DejaVu Sans"))
        try await watcher.watch("shared")
        let events = watcher.events(for: "shared")

        kill(nodes[0].process.processIdentifier, SIGKILL)
        for await state in states {
            if case .reconnected(let failures) = state {
                #expect(failures.isEmpty)
                break
            }
        }
        #expect(watcher.endpoint == endpoints[1])

        // Another reader, on node 2, taps and edits: the watcher, now on
        // node 1, hears of both, the tap in its own view.
        let reader = try await LecternConnection.connect(to: endpoints[2], timeout: .seconds(5))
        try await reader.view("shared", ViewOptions(width: 400, font: "DejaVu Sans"))
        var iterator = events.makeAsyncIterator()
        var heard: DocumentEvent?
        // Node 1 learns that its reader watches, through Redis: tap until it has.
        for _ in 0..<50 where heard == nil {
            _ = try await reader.tap("shared", at: Point(x: 20, y: 10))
            heard = try await withThrowingTaskGroup(of: DocumentEvent?.self) { group in
                group.addTask { await iterator.next() }
                group.addTask { try await Task.sleep(for: .milliseconds(100)); return nil }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return first
            }
        }
        let tap = try #require(heard)
        #expect(tap.node == "n2")
        guard case .tap(0, let range, let rects, _) = tap.kind else {
            Issue.record("expected a TAP of sentence 0, got \(tap)")
            return
        }
        guard case .hit(let own, _, _, _) = try await watcher.tap("shared", at: Point(x: 20, y: 10)) else {
            Issue.record("the watcher's own tap missed")
            return
        }
        #expect(own.sentence.content == range)
        #expect(own.rects == rects)
        try await reader.put("shared", text: "Changed on node two.", language: "en")
        while let event = await iterator.next() {
            if case .changed(let revision, let sentences) = event.kind {
                #expect(event.node == "n2")
                #expect(sentences == 1 && revision == 2)
                break
            }
        }
    }
}
