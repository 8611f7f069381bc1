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

    /// Open loop: every scheduled request (500/s for 2 s) is sent and
    /// answered, whether the client wakes for each one (0), at most every
    /// 50 µs (the default) or only every 5 ms, sending all that is due; a
    /// request that waits for a wake-up shows it in the client's lateness.
    @Test(arguments: [0, 50, 5000])
    func openLoopTapsAllAnswered(wakeEvery: Int) throws {
        let daemon = try BuiltProcess.Daemon([])
        let run = try BuiltProcess.load([
            "tap", "--port", "\(daemon.port)", "--connections", "20", "--rate", "500", "--wake-every", "\(wakeEvery)",
            "--duration", "2", "--warmup", "0.2", "--timeout", "20",
        ])
        expectClean(run)
        #expect(run.report["completed"] as? Int == 1000)
        if wakeEvery > 2000 {
            let lag = try #require(run.report["send_lag_ms"] as? [String: Any], "\(run.report)")
            #expect((lag["max"] as? Double ?? 0) >= 2, "a request waited for the next wake-up: \(lag)")
        }
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

    /// Two loops, one report: every load reply checked, the threads' counts
    /// add up to the total, and the merged histogram holds every sample.
    @Test func twoThreadsMergeIntoOneCleanReport() throws {
        let daemon = try BuiltProcess.Daemon([])
        let run = try BuiltProcess.load([
            "tap", "--port", "\(daemon.port)", "--connections", "20", "--depth", "4", "--threads", "2",
            "--duration", "2", "--warmup", "0.2", "--timeout", "20",
        ])
        expectClean(run)
        #expect(run.report["threads"] as? Int == 2)
        let completed = run.report["completed"] as? Int ?? -1
        let sent = run.report["sent"] as? Int ?? -1
        #expect(completed > 0)
        #expect(run.report["load_replies_checked"] as? Int == sent, "every load request's reply was checked")
        let parts = run.report["per_thread"] as? [[String: Any]] ?? []
        #expect(parts.count == 2)
        #expect(parts.map { $0["connections"] as? Int ?? -1 } == [10, 10])
        #expect(parts.allSatisfy { ($0["completed"] as? Int ?? 0) > 0 }, "both threads did work: \(parts)")
        #expect(parts.reduce(0) { $0 + ($1["completed"] as? Int ?? 0) } == completed)
        #expect(parts.reduce(0) { $0 + ($1["sent"] as? Int ?? 0) } == sent)
        #expect((run.report["latency_ms"] as? [String: Any])?["samples"] as? Int == completed)
    }

    /// Open loop over three threads keeps the one schedule: every request of
    /// 600/s for 2 s is sent once and answered.
    @Test func threadsShareTheOpenLoopSchedule() throws {
        let daemon = try BuiltProcess.Daemon([])
        let run = try BuiltProcess.load([
            "mix", "--port", "\(daemon.port)", "--connections", "12", "--rate", "600", "--threads", "3",
            "--duration", "2", "--warmup", "0.2", "--timeout", "20",
        ])
        expectClean(run)
        #expect(run.report["completed"] as? Int == 1200)
        let parts = run.report["per_thread"] as? [[String: Any]] ?? []
        #expect(parts.map { $0["completed"] as? Int ?? -1 } == [400, 400, 400])
    }

    @Test func typewriterStreamsTickOnTwoThreads() throws {
        let daemon = try BuiltProcess.Daemon([])
        let run = try BuiltProcess.load([
            "type", "--port", "\(daemon.port)", "--connections", "20", "--threads", "2",
            "--interval", "20", "--duration", "1.5", "--warmup", "0.2", "--timeout", "20",
        ])
        expectClean(run)
        let figures = (run.report["scenario_metrics"] as? [String: Any])?["figures"] as? [String: Any]
        #expect(figures?["streams"] as? Double == 20)
        #expect((figures?["ticks delivered"] as? Double ?? 0) > 0)
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
