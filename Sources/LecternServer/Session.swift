// Session.swift: what the protocol remembers about one connection.

import LecternLayout
import LecternText

/// A connection's view of one document: the layout parameters it asked for.
struct ViewState {
    var spec: LayoutSpec
}

/// Per-connection protocol state: what HELLO negotiated, and the views,
/// selections and watches the commands built up.
///
/// Loop thread only.
final class Session {
    /// The name the client gave in HELLO, for logs.
    var clientName: String?
    /// The unit every offset and range on this connection is counted in.
    var unit: OffsetUnit = .utf16
    /// Views by document id.
    var views: [String: ViewState] = [:]
    /// Documents in which this connection has selected sentences (the
    /// selections themselves live in ``Document/selections``).
    var selectedDocuments: Set<String> = []
    /// Documents this connection watches.
    var watching: Set<String> = []
    /// Typewriter streams running on this connection, by stream id.
    var streams: [Int: TypewriterStream] = [:]

    /// Connections that watch a document or run a stream are expected to be
    /// quiet for long stretches; the idle timeout spares them.
    var isIdleTimeoutExempt: Bool { !watching.isEmpty || !streams.isEmpty }
}
