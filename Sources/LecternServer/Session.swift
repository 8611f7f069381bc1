// Session.swift: what the protocol remembers about one connection.

/// Per-connection protocol state, negotiated by HELLO and grown by the
/// commands (views, selections, watches, streams).
///
/// Loop thread only.
final class Session {
    /// The name the client gave in HELLO, for logs and STATS.
    var clientName: String?
    /// Whether the client has said HELLO.
    var hasGreeted = false

    /// Connections that watch a document or run a stream are expected to be
    /// quiet for long stretches; the idle timeout spares them.
    var isIdleTimeoutExempt: Bool { false }
}
