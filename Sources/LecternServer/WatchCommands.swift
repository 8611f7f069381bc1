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
            name: "WATCH", syntax: "<id>", minimumArguments: 1, maximumArguments: 1,
            summary: "Sends this connection events when others tap, select or change the document, in its own view.",
            details: [
                "WATCH intro -> OK WATCH id=intro watchers=2",
                "Events: ! TAP, ! SELECT, ! CLEAR, ! CHANGED, ! DELETED (see PROTOCOL.md)",
            ],
            handler: { context in
                let id = try Wire.documentID(context.arguments[0])
                let document = try context.server.documents.require(id)
                document.watchers[context.connection.id] = context.connection
                context.connection.session.watching.insert(id)
                return .reply(Reply("WATCH id=\(id) watchers=\(document.watchers.count)"))
            }),
        Command(
            name: "UNWATCH", syntax: "<id>", minimumArguments: 1, maximumArguments: 1,
            summary: "Stops the events of WATCH.",
            details: ["UNWATCH intro -> OK UNWATCH id=intro"],
            handler: { context in
                let id = try Wire.documentID(context.arguments[0])
                context.server.documents[id]?.watchers[context.connection.id] = nil
                context.connection.session.watching.remove(id)
                return .reply(Reply("UNWATCH id=\(id)"))
            }),
    ]

    /// Sends an event to every watcher of `document` but `origin`.
    ///
    /// `describe(unit)` writes the event in a watcher's offset unit (made
    /// once per unit in use). When `range` is given, each watcher that has a
    /// view of the document gets `rects=… outline=…` of that range in its
    /// own view; the geometry is computed once per distinct view spec, not
    /// once per watcher.
    func broadcast(
        _ document: Document, from origin: Connection?, range: Range<Int>?, _ describe: (OffsetUnit) -> String
    ) {
        guard !document.watchers.isEmpty else { return }
        // Watchers sharing a unit and a view get the very same bytes:
        // each distinct event line is made once.
        var texts: [OffsetUnit: String] = [:]
        var geometry: [LayoutSpec: String] = [:]
        var lines: [EventVariant: [UInt8]] = [:]
        for watcher in document.watchers.values where watcher !== origin {
            let unit = watcher.session.unit
            let spec = range == nil ? nil : watcher.session.view(of: document)
            let variant = EventVariant(unit: unit, spec: spec)
            if let bytes = lines[variant] {
                watcher.send(event: bytes)
                continue
            }
            var line = texts[unit] ?? describe(unit)
            texts[unit] = line
            if let range, let spec {
                let fields = geometry[spec]
                    ?? Document.geometryFields(range, layout: layouts.layoutNow(document, spec: spec))
                geometry[spec] = fields
                line += " " + fields
            }
            let bytes = Array(line.utf8)
            lines[variant] = bytes
            watcher.send(event: bytes)
        }
    }


    /// After a document's text or attachments changed: selections of its
    /// old sentences are dropped, watchers get `! CHANGED`.
    func documentDidChange(_ document: Document, by origin: Connection, created: Bool, textChanged: Bool = true) {
        if textChanged {
            document.selections.removeAll()
            typewriters.documentDidChange(document)
        }
        broadcast(document, from: origin, range: nil) { _ in
            "CHANGED \(document.id) by=\(origin.id) revision=\(document.revision) sentences=\(document.sentences.count)"
        }
    }

    /// Removes a document; watchers get `! DELETED` and stop watching it.
    func delete(_ document: Document, by origin: Connection) {
        documents.remove(document.id)
        typewriters.documentWasDeleted(document)
        broadcast(document, from: origin, range: nil) { _ in "DELETED \(document.id) by=\(origin.id)" }
        for watcher in document.watchers.values { watcher.session.watching.remove(document.id) }
        document.watchers.removeAll()
    }

    /// Forgets a closing connection everywhere it left traces.
    func forgetSessionState(of connection: Connection) {
        let session = connection.session
        for id in session.watching { documents[id]?.watchers[connection.id] = nil }
        for id in session.selectedDocuments { documents[id]?.selections[connection.id] = nil }
        session.watching.removeAll()
        session.selectedDocuments.removeAll()
    }
}
