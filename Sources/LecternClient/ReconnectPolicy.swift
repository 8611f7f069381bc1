// ReconnectPolicy.swift: whether and how a lost connection is re-established.

/// Automatic reconnection with exponential backoff.
///
/// When the connection drops (not after ``LecternConnection/close()`` or
/// QUIT), requests waiting for a reply fail with
/// ``LecternError/connectionLost`` — they may or may not have run, so they
/// are not replayed — and typewriter streams end with that error. The
/// connection then retries after ``initialDelay``, doubling the wait up to
/// ``maximumDelay``. Once connected it restores, in order: HELLO (name and
/// units), AUTH, then ``prepare`` (for example to PUT documents again into a
/// daemon that lost them), then every VIEW and every WATCH in effect.
/// Progress is reported on ``LecternConnection/connectionEvents()``.
///
/// **Several nodes.** A connection made with
/// ``LecternConnection/connect(nodes:timeout:requestTimeout:reconnect:maximumLineLength:)``
/// goes round its list: each attempt is one round, starting with the node
/// after the one that was lost and ending with the lost one. The backoff
/// comes between rounds, not between the nodes of a round, which are tried
/// one after another, so failing over to a live node costs one
/// ``initialDelay`` plus a refused connect per dead node before it.
/// ``maximumAttempts`` counts rounds. ``LecternConnection/endpoint`` names
/// the node the connection is on once ``ConnectionEvent/reconnected(failures:)``
/// is reported; the session is restored there exactly as on one node.
///
/// ```swift
/// let lectern = try await LecternConnection.connect(
///     host: "reader.local", port: 7878, reconnect: ReconnectPolicy(maximumAttempts: 20))
/// ```
public struct ReconnectPolicy: Sendable {
    /// Wait before the first attempt.
    public var initialDelay: Duration
    /// The longest wait between attempts.
    public var maximumDelay: Duration
    /// Attempts before giving up (`nil`: forever); with several nodes, an
    /// attempt is one round through them all. Giving up closes the connection.
    public var maximumAttempts: Int?
    /// Runs after HELLO and AUTH are restored and before views and watches are:
    /// requests made in it go out first on the new connection. An error it
    /// throws is reported as a ``RestoreFailure`` and restoring goes on.
    public var prepare: (@Sendable (LecternConnection) async throws -> Void)?

    /// A policy: retry after `initialDelay`, doubling up to `maximumDelay`,
    /// at most `maximumAttempts` times (`nil`: forever), running `prepare`
    /// on each new connection before views and watches are restored.
    public init(
        initialDelay: Duration = .milliseconds(100), maximumDelay: Duration = .seconds(5), maximumAttempts: Int? = nil,
        prepare: (@Sendable (LecternConnection) async throws -> Void)? = nil
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
        self.prepare = prepare
    }

    /// The wait before attempt `attempt` (1-based).
    func delay(before attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(1, attempt) {
            delay = delay * 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}
