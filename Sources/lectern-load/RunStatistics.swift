// RunStatistics.swift: what a run counts and measures.

/// Errors by kind, as the report prints them.
struct ErrorCounts: Equatable {
    /// Connections that could not be established.
    var connect = 0
    /// Requests (or events) that got no answer within `--timeout`.
    var timeout = 0
    /// `ERR` replies (by code in ``byCode``).
    var errorReply = 0
    /// Connections the server closed, or that failed, during the run.
    var disconnect = 0
    /// Replies or events that were not the expected shape.
    var malformed = 0
    var byCode: [String: Int] = [:]
    /// The first few distinct malformed replies and error reasons, for the report.
    var samples: [String] = []

    var total: Int { connect + timeout + errorReply + disconnect + malformed }

    mutating func note(_ sample: String) {
        if samples.count < 5 && !samples.contains(sample) { samples.append(sample) }
    }

    /// Adds another thread's errors: every count and code; samples up to the same five.
    mutating func merge(_ other: ErrorCounts) {
        connect += other.connect
        timeout += other.timeout
        errorReply += other.errorReply
        disconnect += other.disconnect
        malformed += other.malformed
        byCode.merge(other.byCode, uniquingKeysWith: +)
        for sample in other.samples { note(sample) }
    }
}

/// Counters and latency of the measured load requests.
struct RunStatistics {
    /// Reply latency of load requests scheduled inside the measured window,
    /// from their intended send time.
    var latency = LatencyHistogram()
    /// Open loop: how late the client itself sent (actual − scheduled). If
    /// this is large the client, not the server, was the bottleneck.
    var sendLag = LatencyHistogram()
    /// Load requests completed whose intended time is in the measured window.
    var completed: UInt64 = 0
    /// Load requests sent in all (warm-up included).
    var sent: UInt64 = 0
    /// Replies to load requests received and checked against their
    /// expectation (warm-up included; well-formed or not).
    var loadRepliesChecked: UInt64 = 0
    var errors = ErrorCounts()

    /// Adds another thread's statistics: histogram buckets and counts add
    /// exactly, so percentiles of the merge are those of one histogram
    /// that had recorded every sample.
    mutating func merge(_ other: RunStatistics) {
        latency.merge(other.latency)
        sendLag.merge(other.sendLag)
        completed += other.completed
        sent += other.sent
        loadRepliesChecked += other.loadRepliesChecked
        errors.merge(other.errors)
    }
}
