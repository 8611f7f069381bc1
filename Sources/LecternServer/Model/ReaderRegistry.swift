// ReaderRegistry.swift: who reads which document: every connection's watch, selection and typewriter streams.

/// The per-reader state, keyed by (document, connection): whether a
/// connection watches a document (WATCH), the sentences it selected there
/// (SELECT), and the typewriter streams it runs on it (TYPE).
///
/// The one record of all three: documents and sessions hold none of it, so
/// documents and connections never reference each other, and each change
/// of the world is one call here:
///
/// - a connection closes: ``connectionDidClose(_:)`` forgets all it had,
///   its streams included (they end without an event);
/// - a document is deleted: ``documentWasDeleted(_:)`` forgets every
///   connection's state in it;
/// - a document's text changes: ``dropSelections(in:)``, since sentence
///   numbers then mean other sentences.
///
/// Documents are known by their ``Document/serial``, never by their id, so
/// a new document under a deleted one's id starts clean by construction.
/// Every change goes through ``update(_:_:_:)``, which keeps the look-ups
/// (watchers of a document, documents of a connection, counts) in step.
///
/// Fan-out order is deterministic: a document's watchers in ascending
/// connection id (the order they connected), its streams in the order they
/// started. The typewriter scheduler's deadline heap knows streams by id
/// and asks ``stream(_:)`` for them: a stream is running exactly while it
/// is here.
///
/// Holds the connections that read (strongly, until they close) and the
/// streams (which hold their document). Loop thread only.
final class ReaderRegistry {
    /// One connection that has watched, selected or typed in any document:
    /// kept from then until the connection closes.
    final class Reader {
        let connection: Connection
        /// Watch events held back behind one that waits for its view's
        /// layout (see ``Server/broadcast(_:from:range:_:)``); nearly always empty.
        var watchEvents = WatchEventQueue()
        /// Serials of the documents in which it has state.
        fileprivate(set) var documents: Set<UInt64> = []
        fileprivate(set) var watchCount = 0
        fileprivate(set) var streamCount = 0

        fileprivate init(_ connection: Connection) { self.connection = connection }
    }

    /// One connection's state in one document.
    private struct Reading {
        var isWatching = false
        /// Selected sentence numbers (of the document's current text).
        var selection: Set<Int> = []
        /// Ids of its streams of the document, in the order they started.
        var streams: [Int] = []

        var isEmpty: Bool { !isWatching && selection.isEmpty && streams.isEmpty }
    }

    /// Every connection's state in one document.
    private struct DocumentReaders {
        /// By connection id.
        var readings: [UInt64: Reading] = [:]
        /// The readers that watch it, by ascending connection id.
        var watchers: [Reader] = []
    }

    /// By connection id.
    private var readers: [UInt64: Reader] = [:]
    /// By document serial; a document nobody reads has no entry.
    private var byDocument: [UInt64: DocumentReaders] = [:]
    /// Every running stream, by stream id.
    private var streamsByID: [Int: TypewriterStream] = [:]
    /// Watches of all documents together, so that a TAP nobody watches
    /// costs no look-up.
    private var watchTotal = 0

    // MARK: Look-ups

    /// The connection's record, if it has ever watched, selected or typed.
    func reader(of connection: Connection) -> Reader? { readers[connection.id] }

    /// The readers watching `document`, by ascending connection id.
    func watchers(of document: Document) -> [Reader] {
        guard watchTotal > 0 else { return [] }
        return byDocument[document.serial]?.watchers ?? []
    }

    /// Whether anyone watches `document`. O(1).
    func hasWatchers(_ document: Document) -> Bool {
        watchTotal > 0 && byDocument[document.serial]?.watchers.isEmpty == false
    }

    /// The sentences `connection` selected in `document`.
    func selection(of connection: Connection, in document: Document) -> Set<Int> {
        byDocument[document.serial]?.readings[connection.id]?.selection ?? []
    }

    /// The running stream with this id.
    func stream(_ id: Int) -> TypewriterStream? { streamsByID[id] }

    /// The running stream with this id if it is `connection`'s.
    func stream(_ id: Int, of connection: Connection) -> TypewriterStream? {
        streamsByID[id].flatMap { $0.connection === connection ? $0 : nil }
    }

    /// The streams of `document`, in the order they started.
    /// - Complexity: O(s log s) for its s streams.
    func streams(of document: Document) -> [TypewriterStream] {
        guard let readings = byDocument[document.serial]?.readings else { return [] }
        return readings.values.flatMap(\.streams).sorted().compactMap { streamsByID[$0] }
    }

    /// Streams running on all connections.
    var streamCount: Int { streamsByID.count }

    /// Watches of all documents together (STATS `watches`).
    var watchCount: Int { watchTotal }

    /// Connections watching at least one document (STATS `watching_connections`).
    /// - Complexity: O(readers).
    var watchingConnectionCount: Int {
        var count = 0
        for reader in readers.values where reader.watchCount > 0 { count += 1 }
        return count
    }

    /// Streams running on `connection`.
    func streamCount(of connection: Connection) -> Int { readers[connection.id]?.streamCount ?? 0 }

    /// Connections that watch a document or run a stream are expected to
    /// be quiet for long stretches; the idle timeout spares them.
    func isIdleTimeoutExempt(_ connection: Connection) -> Bool {
        guard let reader = readers[connection.id] else { return false }
        return reader.watchCount > 0 || reader.streamCount > 0
    }

    // MARK: Changes

    /// `connection` watches `document` (again: no change).
    /// - Returns: the document's watchers, `connection` included.
    func watch(_ document: Document, by connection: Connection) -> Int {
        update(document.serial, reader(creatingFor: connection)) { $0.isWatching = true }
        return byDocument[document.serial]?.watchers.count ?? 0
    }

    func unwatch(_ document: Document, by connection: Connection) {
        guard let reader = readers[connection.id] else { return }
        update(document.serial, reader) { $0.isWatching = false }
    }

    /// Adds sentence `number` to `connection`'s selection in `document`, or
    /// removes it if it was there. O(1): the selection is never copied.
    /// - Returns: whether it was added, and the sentences now selected.
    func toggleSelection(_ number: Int, of connection: Connection, in document: Document) -> (added: Bool, count: Int) {
        update(document.serial, reader(creatingFor: connection)) { reading in
            let added = reading.selection.insert(number).inserted
            if !added { reading.selection.remove(number) }
            return (added, reading.selection.count)
        }
    }

    /// Empties `connection`'s selection in `document`.
    /// - Returns: how many sentences were selected.
    @discardableResult
    func clearSelection(of connection: Connection, in document: Document) -> Int {
        guard let reader = readers[connection.id] else { return 0 }
        return update(document.serial, reader) { reading in
            let count = reading.selection.count
            reading.selection = []
            return count
        }
    }

    /// The text of `document` changed: every connection's selection in it goes.
    func dropSelections(in document: Document) {
        guard let readings = byDocument[document.serial]?.readings else { return }
        for (id, reading) in readings where !reading.selection.isEmpty {
            guard let reader = readers[id] else { continue }
            update(document.serial, reader) { $0.selection = [] }
        }
    }

    /// Records a stream that has started (``TypewriterScheduler/start``).
    func add(_ stream: TypewriterStream) {
        streamsByID[stream.id] = stream
        update(stream.document.serial, reader(creatingFor: stream.connection)) { $0.streams.append(stream.id) }
    }

    /// Forgets a stream that ended; nothing if it had already.
    func remove(_ stream: TypewriterStream) {
        guard streamsByID.removeValue(forKey: stream.id) != nil, let reader = readers[stream.connection.id] else { return }
        update(stream.document.serial, reader) { reading in reading.streams.removeAll { $0 == stream.id } }
    }

    /// `document` was deleted: every connection's state in it goes (end
    /// its streams first if they are to say so).
    func documentWasDeleted(_ document: Document) {
        guard let readings = byDocument[document.serial]?.readings else { return }
        for id in readings.keys {
            guard let reader = readers[id] else { continue }
            forget(document.serial, reader)
        }
    }

    /// `connection` closes: all it had goes; its streams end without an event.
    func connectionDidClose(_ connection: Connection) {
        guard let reader = readers.removeValue(forKey: connection.id) else { return }
        for serial in reader.documents { forget(serial, reader) }
    }

    // MARK: Keeping the look-ups in step

    private func reader(creatingFor connection: Connection) -> Reader {
        if let known = readers[connection.id] { return known }
        let reader = Reader(connection)
        readers[connection.id] = reader
        return reader
    }

    /// Everything `reader` has in a document goes, its streams too.
    private func forget(_ serial: UInt64, _ reader: Reader) {
        update(serial, reader) { reading in
            for id in reading.streams { streamsByID[id] = nil }
            reading = Reading()
        }
    }

    /// The one way state changes: `change` edits `reader`'s state in a
    /// document (an empty one if it had none), and the watcher list, the
    /// reader's documents and the counts follow. Empty state is not kept.
    ///
    /// The state is taken out of the tables while `change` edits it, so
    /// that it is edited in place (a selection is never copied) and
    /// `change` may touch the registry's other tables.
    /// - Complexity: O(1), plus O(watchers of the document) when the
    ///   reader starts or stops watching it.
    @discardableResult
    private func update<Result>(_ serial: UInt64, _ reader: Reader, _ change: (inout Reading) -> Result) -> Result {
        let id = reader.connection.id
        var entry = byDocument.removeValue(forKey: serial) ?? DocumentReaders()
        var reading = entry.readings.removeValue(forKey: id) ?? Reading()
        let wasWatching = reading.isWatching
        let streamsBefore = reading.streams.count
        let result = change(&reading)
        if reading.isWatching != wasWatching {
            // Binary search for the reader's place in ascending connection id.
            var low = 0
            var high = entry.watchers.count
            while low < high {
                let middle = (low + high) / 2
                if entry.watchers[middle].connection.id < id { low = middle + 1 } else { high = middle }
            }
            if reading.isWatching {
                entry.watchers.insert(reader, at: low)
                reader.watchCount += 1
                watchTotal += 1
            } else {
                entry.watchers.remove(at: low)
                reader.watchCount -= 1
                watchTotal -= 1
            }
        }
        reader.streamCount += reading.streams.count - streamsBefore
        if reading.isEmpty {
            reader.documents.remove(serial)
        } else {
            entry.readings[id] = reading
            reader.documents.insert(serial)
        }
        if !entry.readings.isEmpty { byDocument[serial] = entry }
        return result
    }
}

@available(*, unavailable)
extension ReaderRegistry: Sendable {}
