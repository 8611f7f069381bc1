// AbuseRun.swift: one abuse against a running daemon while another reader PINGs.

import Foundation

/// Bounds of one run, so that a daemon that stalls fails the run rather
/// than hanging it. None is a target: a daemon that works comes nowhere
/// near them.
struct AbuseLimits: Sendable {
    var pings = 1_000
    /// For one PING's reply.
    var pingTimeout = 20.0
    /// Seconds from one PING's send to the next one's (0: each right after
    /// the previous reply), so that the PINGs can span a long abuse.
    var pingEvery = 0.0
    /// For all the PINGs.
    var pingPhase = 120.0
    /// For documents, views and greetings before the abuse.
    var prepare = 300.0
    /// For bulk strings to be taken (or refused) before the PINGs start.
    var hold = 60.0
    /// For every abusing connection's last reply (or close) at the end.
    var finish = 60.0
}

/// Resident memory of the daemon, bytes.
struct MemoryReport: Sendable {
    var baseline: Int
    /// The largest seen while the abuse ran.
    var during: Int
    /// Once the abusing connections had closed and it settled (at most 3 s).
    var after: Int
}

struct AbuseResult: Sendable {
    let abuse: Abuse
    var pings = PingReport()
    var abusers: [AbuserReport] = []
    var memory: MemoryReport?
    /// The abuse could not be set up or started: why.
    var setupFailure: String?
    /// Seconds spent putting documents and opening connections, holding
    /// bulk strings before the PINGs, PINGing, and ending the abuse.
    var phases: (prepare: Double, hold: Double, pings: Double, finish: Double) = (0, 0, 0, 0)
}

enum AbuseRun {
    /// Runs `abuse` against the daemon at `target`:
    ///
    /// 1. the other reader connects (and authenticates), the abuse's
    ///    documents are put and its connections opened;
    /// 2. the memory baseline is taken, the abuse starts;
    /// 3. the other reader sends `limits.pings` PINGs one at a time;
    /// 4. the abuse ends: each abusing connection must get its last reply
    ///    (or have been closed by the daemon); they are closed, and the
    ///    memory is read again once it settles.
    static func run(_ abuse: Abuse, target: AbuseTarget, sizes: AbuseSizes = .issue, limits: AbuseLimits = .init()) -> AbuseResult {
        var result = AbuseResult(abuse: abuse)
        let scenario = abuse.scenario(sizes)
        let pinger: AbuseSocket
        let setup: AbuseSocket
        let began = Monotonic.now()
        do {
            let deadline = began + limits.prepare
            pinger = try AbuseSocket.greeted(target, authenticate: true, deadline: deadline).0
            setup = try AbuseSocket.greeted(target, authenticate: true, deadline: deadline).0
            try scenario.prepare(target, setupConnection: setup, deadline: deadline)
            // Warm the other reader's path before measuring it.
            for _ in 0..<20 { _ = try pinger.request("PING", deadline: deadline) }
        } catch {
            scenario.close()
            result.setupFailure = "\(error)"
            return result
        }
        defer { withExtendedLifetime(setup) {} }

        let baseline = target.pid.flatMap { ResidentMemory.bytes(pid: $0) }
        let sampler = target.pid.map { ResidentMemorySampler(pid: $0) }
        let started = Monotonic.now()
        let abuseDeadline = started + limits.hold + limits.pingPhase + limits.finish
        scenario.start(abuseDeadline: abuseDeadline, holdDeadline: started + limits.hold)
        let held = Monotonic.now()

        result.pings = Pinger.ping(pinger, count: limits.pings, every: limits.pingEvery, timeout: limits.pingTimeout, phaseDeadline: held + limits.pingPhase)
        let during = sampler?.stop()
        let pinged = Monotonic.now()

        result.abusers = scenario.finish(deadline: pinged + limits.finish)
        scenario.close()
        result.phases = (started - began, held - started, pinged - held, Monotonic.now() - pinged)
        if let pid = target.pid, let baseline, let during {
            var after = ResidentMemory.bytes(pid: pid) ?? 0
            let settled = Monotonic.now() + 3
            while after > baseline + baseline / 10 && Monotonic.now() < settled {
                usleep(100_000)
                after = ResidentMemory.bytes(pid: pid) ?? 0
            }
            result.memory = MemoryReport(baseline: baseline, during: max(during, baseline), after: after)
        }
        return result
    }
}
