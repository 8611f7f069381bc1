// ConnectionEvent.swift: the life of a connection, for apps that show it.

/// A change in a connection's life, on ``LecternConnection/connectionEvents()``.
public enum ConnectionEvent: Hashable, Sendable {
    /// The connection dropped; if a ``ReconnectPolicy`` is set, reconnection follows.
    case lost(LecternError)
    /// Reconnection attempt `attempt` (from 1) starts after `delay`.
    case reconnecting(attempt: Int, delay: Duration)
    /// Connected again and restored; what could not be restored is listed
    /// (a view of a document the daemon no longer has, say) and forgotten.
    case reconnected(failures: [RestoreFailure])
    /// The connection is closed for good; no more events follow.
    case closed(LecternError)
}
