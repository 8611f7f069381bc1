// AbuserReport.swift: what became of one abusing connection.

/// How one abusing connection ended: the daemon either served it (its
/// last request was answered, after everything before it) or dropped it;
/// anything else within the bounds is a failure of its own.
struct AbuserReport: Sendable {
    enum Outcome: Sendable, Equatable {
        case served
        case dropped
        /// Neither, within the run's bounds: why.
        case unresolved(String)
    }

    /// The daemon's number for the connection (HELLO's `connection=`,
    /// its logs' `id=`); nil if it could not be learnt.
    let connection: Int?
    let outcome: Outcome
    /// What it was (`watcher 3`, `tapper`), for messages.
    let role: String
}

extension Array where Element == AbuserReport {
    var servedCount: Int { filter { $0.outcome == .served }.count }
    var droppedCount: Int { filter { $0.outcome == .dropped }.count }
    var unresolved: [AbuserReport] {
        filter { if case .unresolved = $0.outcome { return true } else { return false } }
    }
}
