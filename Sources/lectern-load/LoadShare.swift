// LoadShare.swift: one client thread's part of a run.

/// What one of `--threads` loops does: a contiguous range of the
/// connections (numbered over the whole run, so document names stay
/// distinct across threads), every `threads`-th slot of the open-loop
/// schedule starting at slot `thread`, and its part of `--max-requests`.
///
/// With one thread the share is the whole run.
struct LoadShare: Equatable {
    /// This thread's number, from 0, and how many there are.
    let thread: Int
    let threads: Int
    /// The run-wide number of this thread's first connection.
    let firstConnection: Int
    /// Connections of this thread (fan-out: its own count, `--watchers` + 1).
    let connections: Int
    /// Load requests this thread may send at most.
    let maximumRequests: Int

    /// The whole run as one share.
    static func whole(_ options: LoadOptions) -> LoadShare {
        LoadShare(thread: 0, threads: 1, firstConnection: 0, connections: options.connections,
                  maximumRequests: options.maximumRequests)
    }

    /// `--connections` and `--max-requests` split as evenly as whole numbers
    /// allow (the first threads get one more); the shares add up to the whole.
    static func split(_ options: LoadOptions) -> [LoadShare] {
        let threads = options.threads
        guard threads > 1 else { return [whole(options)] }
        var first = 0
        return (0..<threads).map { thread in
            let connections = evenPart(options.connections, thread, threads)
            defer { first += connections }
            return LoadShare(thread: thread, threads: threads, firstConnection: first, connections: connections,
                             maximumRequests: evenPart(options.maximumRequests, thread, threads))
        }
    }

    private static func evenPart(_ total: Int, _ part: Int, _ parts: Int) -> Int {
        total / parts + (part < total % parts ? 1 : 0)
    }
}
