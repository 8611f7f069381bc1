// Session.swift: what the protocol remembers about one connection.

import LecternLayout
import LecternText

/// A connection's view of one document: the layout parameters it asked for.
struct ViewState {
    var spec: LayoutSpec
    /// The layout last used for this view.
    let cache = ViewLayoutCache()
}

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
    var views: [String: ViewState] = [:] {
        didSet { viewGeneration &+= 1 }
    }
    /// Bumped on every change of ``views``, so caches of a view's layout
    /// (typewriter streams keep one) know when to look again.
    private(set) var viewGeneration = 0
    /// This connection's view of `document`: its own (VIEW), or else the
    /// document's default view (VIEW … default=yes), or none.
    func view(of document: Document) -> LayoutSpec? {
        views[document.id]?.spec ?? document.defaultView
    }

    /// The document, view and layout cache the last view command resolved
    /// (see ``Server/documentAndView(_:on:)``): readers tap one document
    /// over and over, and this spares two dictionary lookups for each tap.
    var recentView: RecentView? {
        didSet { recentViewReference = recentView.map(Unmanaged.passUnretained) }
    }
    /// ``recentView`` unretained (this session holds it), for the request
    /// path to check without reference counting.
    private(set) var recentViewReference: Unmanaged<RecentView>?

    /// A class, so that checking it on each request copies nothing.
    final class RecentView {
        let id: [UInt8]
        let registryGeneration: Int
        let viewGeneration: Int
        let defaultViewGeneration: Int
        /// Alive while the registry's generation is `registryGeneration`:
        /// the registry holds it. Not retained, so a cache entry keeps no
        /// deleted document alive.
        unowned(unsafe) let document: Document
        let spec: LayoutSpec
        let cache: ViewLayoutCache

        init(
            id: [UInt8], registryGeneration: Int, viewGeneration: Int, defaultViewGeneration: Int,
            document: Document, spec: LayoutSpec, cache: ViewLayoutCache
        ) {
            self.id = id
            self.registryGeneration = registryGeneration
            self.viewGeneration = viewGeneration
            self.defaultViewGeneration = defaultViewGeneration
            self.document = document
            self.spec = spec
            self.cache = cache
        }
    }

    /// ``view(of:)`` with the cache of the layout last used for it.
    func viewWithCache(of document: Document) -> (spec: LayoutSpec, cache: ViewLayoutCache)? {
        if let own = views[document.id] { return (own.spec, own.cache) }
        return document.defaultView.map { ($0, document.defaultViewCache) }
    }
}
