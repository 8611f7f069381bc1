// NodesAndPubsubRunTests.swift: lectern-load over several nodes (--nodes),
// and its Redis pub/sub baseline against a real redis-server. They assert
// behaviour — every event and message delivered, no errors — never speed.

import Foundation
import Testing

@Suite(.serialized) struct NodesAndPubsubRunTests {
    private func errors(_ report: [String: Any]) -> [String: Int] {
        let errors = report["errors"] as? [String: Any] ?? [:]
        return ["connect", "timeout", "err", "disconnect", "malformed"].reduce(into: [:]) { $0[$1] = errors[$1] as? Int ?? -1 }
    }

    private func figures(_ report: [String: Any]) -> [String: Any] {
        (report["scenario_metrics"] as? [String: Any])?["figures"] as? [String: Any] ?? [:]
    }

    private func expectClean(_ run: (status: Int32, report: [String: Any])) {
        #expect(errors(run.report) == ["connect": 0, "timeout": 0, "err": 0, "disconnect": 0, "malformed": 0],
                "errors: \(run.report["errors"] ?? "none")")
        #expect(run.status == 0)
    }

    /// Two `--memory` daemons share no documents, so fan-out over nodes is
    /// tested with one daemon named twice: the watchers alternate between
    /// the two entries, and each one gets every TAP's event.
    @Test func fanoutOverNodesReachesEveryWatcherOnEachNode() throws {
        let daemon = try BuiltProcess.Daemon([])
        let node = "127.0.0.1:\(daemon.port)"
        let run = try BuiltProcess.load([
            "fanout", "--nodes", "\(node),\(node)", "--watchers", "40", "--views", "4", "--rate", "50",
            "--duration", "1.5", "--warmup", "0.2", "--timeout", "20",
        ])
        expectClean(run)
        #expect(run.report["nodes"] as? [String] == [node, node])
        #expect(run.report["connections"] as? Int == 41)
        let figures = figures(run.report)
        #expect(figures["nodes"] as? Double == 2)
        #expect(figures["watchers"] as? Double == 40)
        #expect(figures["events delivered share"] as? Double == 1)
        let measured = figures["taps measured"] as? Double ?? 0
        #expect(measured > 0)
        #expect(figures["taps reaching every watcher"] as? Double == measured)
    }

    /// Connection n dials node n mod the number of nodes: with a live node
    /// and a port nobody listens on, exactly every other connection fails
    /// to connect, and the live node's connections still do their work.
    @Test func connectionsGoRoundRobinOverTheNodes() throws {
        let daemon = try BuiltProcess.Daemon([])
        let closedPort = try LoopbackPort.free()
        let run = try BuiltProcess.load([
            "tap", "--nodes", "127.0.0.1:\(daemon.port),127.0.0.1:\(closedPort)", "--connections", "6",
            "--duration", "0.5", "--warmup", "0", "--timeout", "20",
        ])
        #expect(run.status == 1)
        #expect(errors(run.report) == ["connect": 3, "timeout": 0, "err": 0, "disconnect": 0, "malformed": 0],
                "errors: \(run.report["errors"] ?? "none")")
        let samples = (run.report["errors"] as? [String: Any])?["samples"] as? [String] ?? []
        #expect(samples.contains { $0.contains("127.0.0.1:\(closedPort)") }, "the failing node is named: \(samples)")
        #expect((run.report["completed"] as? Int ?? 0) > 0)
    }

    /// Redis PUBLISH to 60 subscribers at 100/s: every message reaches every
    /// subscriber, in order, and every PUBLISH reply counts all of them.
    @Test func everySubscriberGetsEveryPublishedMessage() throws {
        let redis = try RedisServer()
        let run = try BuiltProcess.load([
            "pubsub", "--port", "\(redis.port)", "--watchers", "60", "--rate", "100",
            "--duration", "1.5", "--warmup", "0.2", "--timeout", "20",
        ])
        expectClean(run)
        #expect(run.report["connections"] as? Int == 61)
        let figures = figures(run.report)
        #expect(figures["subscribers"] as? Double == 60)
        #expect(figures["message bytes"] as? Double == 200)
        #expect(figures["messages delivered share"] as? Double == 1)
        let measured = figures["publishes measured"] as? Double ?? 0
        #expect(measured > 0)
        #expect(figures["publishes reaching every subscriber"] as? Double == measured)
        #expect(run.report["completed"] as? Int == Int(measured), "every PUBLISH in the window was answered")
    }

    /// Larger payloads (4 KiB each, `--message-bytes`) arrive whole and in
    /// order too.
    @Test func largeMessagesArriveWhole() throws {
        let redis = try RedisServer()
        let run = try BuiltProcess.load([
            "pubsub", "--port", "\(redis.port)", "--watchers", "20", "--message-bytes", "4096", "--rate", "200",
            "--duration", "1", "--warmup", "0.1", "--timeout", "20",
        ])
        expectClean(run)
        #expect(figures(run.report)["message bytes"] as? Double == 4096)
        #expect(figures(run.report)["messages delivered share"] as? Double == 1)
    }
}
