// Session.swift: what the protocol remembers about one connection.

import Glibc
import LecternLayout
import LecternText

/// Per-connection protocol state: what HELLO negotiated, and the views
/// the commands built up (its watches, selections and streams are in
/// ``ReaderRegistry``).
///
/// Loop thread only.
final class Session {
    /// The name the client gave in HELLO, for logs.
    var clientName: String?
    /// Whether AUTH succeeded (or no token is required).
    var isAuthenticated = false
    /// Failed AUTH attempts, and the loop time (ms) of the last one.
    var failedAuthAttempts = 0
    var lastFailedAuth: UInt64 = 0
    /// Whether this connection has sent RESP requests: its events are then
    /// RESP too (pub/sub-style arrays, or pushes after HELLO 3).
    var speaksRESP = false
    /// RESP version for replies to RESP requests: 2, or 3 after `HELLO 3`.
    var respVersion = 2
    /// The unit every offset and range on this connection is counted in.
    var unit: OffsetUnit = .utf16
    /// Views by document id.
    var views: [String: View] = [:] {
        didSet { rememberedView = nil }
    }
    /// This connection's view of `document`: its own (VIEW), or else the
    /// document's default view (VIEW … default=yes), or none.
    func view(of document: Document) -> LayoutSpec? {
        viewWithCache(of: document)?.spec
    }

    /// ``view(of:)`` with the layout last used for it.
    func viewWithCache(of document: Document) -> View? {
        views[document.id] ?? document.defaultView
    }

    /// The document and view the last view command resolved (see
    /// ``Server/documentAndView(_:on:)``): readers tap one document over
    /// and over, and this spares two dictionary lookups for each tap.
    /// Forgotten when ``views`` changes.
    var rememberedView: RememberedView?

    /// An id's document and this connection's view of it, as resolved
    /// when the document had ``stamp``.
    ///
    /// Held strongly: a document that leaves the registry stays in memory
    /// until this connection's next view command or its close (one
    /// document per connection at most).
    final class RememberedView {
        let id: [UInt8]
        let document: Document
        /// The connection's own view, or the document's default view (one
        /// object that changes in place, so no stale spec is seen).
        let view: View
        let stamp: UInt64

        init(id: [UInt8], document: Document, view: View) {
            self.id = id
            self.document = document
            self.view = view
            self.stamp = document.stamp
        }

        /// Whether this is still what `id` names for the connection: the
        /// document has not changed nor left the registry since (its
        /// stamp), and the id is the same bytes. The connection's views
        /// have not changed either, or this would have been forgotten.
        func isCurrent(for id: UnsafeBufferPointer<UInt8>) -> Bool {
            document.layouts.isCurrent(stamp) && Self.sameBytes(self.id, id)
        }

        /// Whether two ids are the same bytes: one `memcmp` (through the
        /// generic `elementsEqual` a TAP's id cost 170 instructions).
        private static func sameBytes(_ known: [UInt8], _ sent: UnsafeBufferPointer<UInt8>) -> Bool {
            guard known.count == sent.count else { return false }
            guard !known.isEmpty else { return true }
            return known.withUnsafeBufferPointer { known in
                guard let a = known.baseAddress, let b = sent.baseAddress else { return false }
                return memcmp(a, b, known.count) == 0
            }
        }
    }
}
