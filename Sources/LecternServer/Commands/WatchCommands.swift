// WatchCommands.swift: WATCH and UNWATCH, and the events watchers get.

import LecternLayout
import LecternProtocol
import LecternText

/// What makes two watchers' copies of an event differ.
private struct EventVariant: Hashable {
    let unit: OffsetUnit
    let spec: LayoutSpec?
}

extension Server {
    /// Commands for reading together.
    static let watchCommands: [Command] = [
        Command(
            name: "WATCH", syntax: "<id>",
            summary: "Sends this connection events when others tap, select or change the document, in its own view.",
            details: [
                "WATCH intro -> OK WATCH id=intro watchers=2",
                "Events: ! TAP, ! SELECT, ! CLEAR, ! CHANGED, ! DELETED (see PROTOCOL.md)",
            ],
            handler: { context in
                let document = try context.document()
                let watchers = context.server.readers.watch(document, by: context.connection)
                let reply = Reply("WATCH id=\(document.id) watchers=\(watchers)")
                let connection = context.connection
                let tag = context.request.tag
                // With --redis, once the other nodes know this one watches.
                guard context.server.announceWatching(document, then: { connection.completeDeferredReply(.success(reply), tag: tag) })
                else { return .reply(reply) }
                connection.deferReply()
                return .deferred
            }),
        Command(
            name: "UNWATCH", syntax: "<id>",
            summary: "Stops the events of WATCH.",
            details: ["UNWATCH intro -> OK UNWATCH id=intro"],
            handler: { context in
                let id = try Wire.documentID(context.arguments[0])
                let server = context.server
                if let document = server.documents[id] { server.readers.unwatch(document, by: context.connection) }
                return .reply(Reply("UNWATCH id=\(id)"))
            }),
    ]

    /// Sends an event to every watcher of `document` but `origin`, in
    /// ascending connection id.
    ///
    /// `describe(unit)` writes the event in a watcher's offset unit (made
    /// once per unit in use). When `range` is given, each watcher that has a
    /// view of the document gets `rects=… outline=…` of that range in its
    /// own view; the geometry is computed once per distinct view spec, not
    /// once per watcher.
    ///
    /// A watcher's layout comes from its own view's cache first, then the
    /// document's; what is found is remembered in the view's cache, so many
    /// watchers with distinct views do not take turns in the document's
    /// bounded cache. A view with no layout yet is laid out on the loop
    /// thread only for a small document; otherwise on the thread pool, and
    /// the watcher's event waits for it, with the watcher's later events
    /// behind it (``WatchEventQueue``).
    ///
    /// Runs inside TAP and SELECT, before their reply, which holds the
    /// tapping view's layout: whatever leaves the document's cache here
    /// takes its own highlight tables with it, and the reply's highlight
    /// is made from the layout it holds (``Document/highlight(_:layout:unit:)``).
    func broadcast(
        _ document: Document, from origin: Connection?, range: Range<Int>?, _ describe: (OffsetUnit) -> String
    ) {
        let watchers = readers.watchers(of: document)
        guard !watchers.isEmpty else { return }
        // Watchers sharing a unit and a view get the very same bytes:
        // each distinct event line is made once.
        var texts: [OffsetUnit: String] = [:]
        var geometry: [LayoutSpec: String] = [:]
        var lines: [EventVariant: EventLine] = [:]
        for reader in watchers where reader.connection !== origin {
            let watcher = reader.connection
            let unit = watcher.session.unit
            let view = range == nil ? nil : watcher.session.viewWithCache(of: document)
            let variant = EventVariant(unit: unit, spec: view?.spec)
            if let bytes = lines[variant] {
                deliver(bytes, to: reader)
                continue
            }
            var line = texts[unit] ?? describe(unit)
            texts[unit] = line
            if let range, let view {
                guard let fields = geometry[view.spec]
                    ?? layouts.layoutOnLoop(document, view: view).map({ Document.geometryFields(range, layout: $0.layout) })
                else {
                    awaitLayout(document, spec: view.spec, line: line, range: range, watcher: reader)
                    continue
                }
                geometry[view.spec] = fields
                line += " " + fields
            }
            let bytes = EventLine(document: document.id, text: line)
            lines[variant] = bytes
            deliver(bytes, to: reader)
        }
    }

    /// A watch event for `watcher`: sent now, or queued behind the events
    /// that wait for a layout.
    private func deliver(_ event: EventLine, to watcher: ReaderRegistry.Reader) {
        if watcher.watchEvents.isEmpty {
            watcher.connection.send(event: event)
        } else {
            enqueue(.ready(event), for: watcher)
        }
    }

    /// Queues an entry (a full queue is sent first, as it stands).
    /// - Returns: whether the entry is the first to wait for its layout.
    @discardableResult
    private func enqueue(_ entry: WatchEventQueue.Entry, for watcher: ReaderRegistry.Reader) -> Bool {
        let (sendNow, isFirstToAwait) = watcher.watchEvents.add(entry)
        for event in sendNow { watcher.connection.send(event: event) }
        return isFirstToAwait
    }

    /// Queues a watcher's event until the layout of `document` at its
    /// current revision for `spec` is computed on the pool, and asks for it.
    /// The event gets geometry of that revision (the one it names in
    /// `revision=`), whatever the document has become by then.
    private func awaitLayout(
        _ document: Document, spec: LayoutSpec, line: String, range: Range<Int>, watcher: ReaderRegistry.Reader
    ) {
        let request = LayoutService.LayoutRequest(document, spec: spec)
        // Queued before asking: the answer may come at once (BackgroundWork's fallback).
        guard enqueue(.awaiting(line: EventLine(document: document.id, text: line), range: range, layout: request), for: watcher) else { return }
        // Weak: a connection that closes meanwhile leaves the registry, and its events go with it.
        layouts.requestLayout(document, spec: spec, on: loop) { [weak watcher] layout in
            guard let watcher else { return }
            self.watchLayoutArrived(layout, for: request, of: document, watcher: watcher)
        }
    }

    /// A layout a watcher's events waited for is ready: it fills the view's
    /// cache (if the view is still that one and has none), completes the
    /// waiting events and sends those now at the front of the queue.
    private func watchLayoutArrived(
        _ layout: CachedLayout, for request: LayoutService.LayoutRequest, of document: Document, watcher: ReaderRegistry.Reader
    ) {
        let session = watcher.connection.session
        if documents[document.id] === document, let view = session.viewWithCache(of: document), view.spec == request.spec {
            view.rememberIfMissing(layout, for: document)
        }
        watcher.watchEvents.resolve(request) { Document.geometryFields($0, layout: layout.layout) }
        for event in watcher.watchEvents.takeReady() { watcher.connection.send(event: event) }
    }

    /// After a document's text or attachments changed: selections of its
    /// old sentences are dropped, watchers get `! CHANGED`.
    func documentDidChange(_ document: Document, by origin: Connection, created: Bool, textChanged: Bool = true) {
        documentDidChange(document, origin: .local(origin), textChanged: textChanged)
    }

    /// As ``documentDidChange(_:by:created:textChanged:)``, for a change
    /// made here or on another node (`--redis`).
    func documentDidChange(_ document: Document, origin: EventOrigin, textChanged: Bool) {
        if textChanged {
            readers.dropSelections(in: document)
            typewriters.documentDidChange(document)
        }
        broadcast(document, from: origin.connection, range: nil) { _ in
            "CHANGED \(document.id) \(origin.fields) revision=\(document.revision) sentences=\(document.sentences.count)"
        }
    }

    /// Removes a document: its streams end with `! DONE`, watchers get
    /// `! DELETED`, and every connection's state in it goes.
    func delete(_ document: Document, by origin: Connection) {
        delete(document, origin: .local(origin))
    }

    /// As ``delete(_:by:)``, for a delete made here or on another node.
    func delete(_ document: Document, origin: EventOrigin) {
        documents.remove(document.id)
        typewriters.documentWasDeleted(document)
        broadcast(document, from: origin.connection, range: nil) { _ in "DELETED \(document.id) \(origin.fields)" }
        readers.documentWasDeleted(document)
    }
}
