// Pinger.swift: the other reader, who sends PINGs one at a time and times each.

import Glibc

/// What the other reader saw.
struct PingReport: Sendable {
    /// PINGs answered with their own `OK PONG`, in order.
    var answered = 0
    /// Seconds from each answered PING's send to its reply, in order.
    var latencies: [Double] = []
    /// Why the PINGs stopped before all were answered.
    var failure: String?
}

enum Pinger {
    /// Sends `count` tagged PINGs, each after the previous one's reply
    /// and at least `every` seconds after the previous one's send, and
    /// checks each reply is that PING's `OK PONG`. Stops at the first
    /// that is not answered within `timeout` seconds, answered wrongly,
    /// or once `phaseDeadline` has passed.
    static func ping(_ socket: AbuseSocket, count: Int, every: Double = 0, timeout: Double, phaseDeadline: Double) -> PingReport {
        var report = PingReport()
        report.latencies.reserveCapacity(count)
        var due = Monotonic.now()
        for n in 0..<count {
            let wait = due - Monotonic.now()
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            due += every
            let sent = Monotonic.now()
            if sent >= phaseDeadline {
                report.failure = "the PINGs' bound passed after \(n) of \(count)"
                break
            }
            guard socket.send("@p\(n) PING\n", deadline: sent + timeout) == .sent else {
                report.failure = "PING \(n) could not be sent (\(socket.isClosedByPeer ? "the daemon closed the connection" : "timed out"))"
                break
            }
            switch socket.readLine(deadline: sent + timeout) {
            case .line(let line):
                guard line == "@p\(n) OK PONG" else {
                    report.failure = "PING \(n) was answered '\(line.prefix(200))'"
                    return report
                }
                report.latencies.append(Monotonic.now() - sent)
                report.answered += 1
            case .closed:
                report.failure = "the daemon closed the pinging connection after \(n) PINGs"
                return report
            case .timedOut:
                report.failure = "PING \(n) had no reply within \(Int(timeout)) s"
                return report
            }
        }
        return report
    }
}
