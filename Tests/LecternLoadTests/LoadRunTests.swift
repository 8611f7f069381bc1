// LoadRunTests.swift: short runs of lectern-load against a live lecternd.
// They assert behaviour — no errors, every reply well-formed — never speed.

import Foundation
import Testing

@Suite(.serialized) struct LoadRunTests {
    private func errors(_ report: [String: Any]) -> [String: Int] {
        let errors = report["errors"] as? [String: Any] ?? [:]
        return ["connect", "timeout", "err", "disconnect", "malformed"].reduce(into: [:]) { $0[$1] = errors[$1] as? Int ?? -1 }
    }

    private func expectClean(_ run: (status: Int32, report: [String: Any])) {
        #expect(errors(run.report) == ["connect": 0, "timeout": 0, "err": 0, "disconnect": 0, "malformed": 0],
                "errors: \(run.report["errors"] ?? "none")")
        #expect(run.status == 0)
    }

    @Test func twoHundredConnectionsOfMixedWorkGetOnlyWellFormedReplies() throws {
        let daemon = try BuiltProcess.Daemon(["--max-connections", "1000"])
        let run = try BuiltProcess.load([
            "mix", "--port", "\(daemon.port)", "--connections", "200", "--depth", "4",
            "--duration", "3", "--warmup", "0.5", "--timeout", "20",
        ])
        expectClean(run)
        #expect((run.report["completed"] as? Int ?? 0) > 200, "every connection did work: \(run.report)")
        #expect((run.report["connections"] as? Int) == 200)
    }

    @Test func openLoopTapsAllAnswered() throws {
        let daemon = try BuiltProcess.Daemon([])
        let run = try BuiltProcess.load([
            "tap", "--port", "\(daemon.port)", "--connections", "20", "--rate", "500",
            "--duration", "2", "--warmup", "0.2", "--timeout", "20",
        ])
        expectClean(run)
        // Open loop: every scheduled request (500/s for 2 s) is sent and answered.
        #expect(run.report["completed"] as? Int == 1000)
    }

    @Test func everyWatcherGetsEveryTap() throws {
        let daemon = try BuiltProcess.Daemon([])
        let run = try BuiltProcess.load([
            "fanout", "--port", "\(daemon.port)", "--watchers", "50", "--views", "5", "--rate", "50",
            "--duration", "2", "--warmup", "0.2", "--timeout", "20",
        ])
        expectClean(run)
        let figures = (run.report["scenario_metrics"] as? [String: Any])?["figures"] as? [String: Any]
        #expect(figures?["events delivered share"] as? Double == 1)
        #expect(figures?["watchers"] as? Double == 50)
    }

    @Test func typewriterStreamsTick() throws {
        let daemon = try BuiltProcess.Daemon([])
        let run = try BuiltProcess.load([
            "type", "--port", "\(daemon.port)", "--connections", "50", "--streams-per-connection", "2",
            "--interval", "20", "--duration", "2", "--warmup", "0.2", "--timeout", "20",
        ])
        expectClean(run)
        let figures = (run.report["scenario_metrics"] as? [String: Any])?["figures"] as? [String: Any]
        #expect((figures?["ticks delivered"] as? Double ?? 0) > 0)
        #expect(figures?["streams"] as? Double == 100)
    }

    @Test func rawModeSpeaksOtherLineProtocols() throws {
        let daemon = try BuiltProcess.Daemon([])
        let run = try BuiltProcess.load([
            "raw", "--port", "\(daemon.port)", "--connections", "5", "--depth", "8",
            "--request", "PING", "--expect", "OK PONG", "--duration", "1", "--warmup", "0.1",
        ])
        expectClean(run)
        let refused = try BuiltProcess.load([
            "raw", "--port", "\(daemon.port)", "--connections", "2", "--request", "NOSUCH",
            "--duration", "0.5", "--warmup", "0",
        ])
        #expect(refused.status == 1)
        let errors = refused.report["errors"] as? [String: Any]
        #expect((errors?["err"] as? Int ?? 0) > 0)
        #expect((errors?["by_code"] as? [String: Int])?["UNKNOWN"] != nil)
    }
}
