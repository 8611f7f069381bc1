// ConnectionEvent.swift: the life of a connection, for apps that show it.

/// A change in a connection's life, on ``LecternConnection/connectionEvents()``.
public enum ConnectionEvent: Hashable, Sendable {
    /// The connection dropped; if a ``ReconnectPolicy`` is set, reconnection follows.
    case lost(LecternError)
    /// Reconnection attempt `attempt` (from 1) starts after `delay`; with
    /// several nodes an attempt is one round through them (see ``ReconnectPolicy``).
    case reconnecting(attempt: Int, delay: Duration)
    /// Connected again and restored; what could not be restored is listed
    /// (a view of a document the daemon no longer has, say) and forgotten.
    /// ``LecternConnection/endpoint`` names the node it is now on.
    case reconnected(failures: [RestoreFailure])
    /// The connection is closed for good; no more events follow.
    case closed(LecternError)
}
