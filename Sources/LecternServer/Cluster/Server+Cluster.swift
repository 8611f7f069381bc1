// Server+Cluster.swift: lecternd --redis: documents cached from Redis,
// events to and from the other nodes.

import CUV
import Foundation
import LecternProtocol
import LecternStore

/// What a node knows of the others (with `--redis`). Loop thread only.
struct ClusterCache {
    /// Per document, the other nodes whose readers watch it: this node
    /// publishes TAP, SELECT and CLEAR of a document only while it has some.
    var watchingNodes: [String: Set<String>] = [:]
    /// Documents this node has announced it watches (``RedisDocuments/announce(_:watching:then:)``).
    var announced: Set<String> = []
    /// Announcements Redis has not answered yet, with the WATCH replies
    /// that wait for them.
    var announcing: [String: [() -> Void]] = [:]
    /// Documents being reloaded, with the reading events (TAP, SELECT,
    /// CLEAR) of their newer revision that arrived meanwhile.
    var reloading: [String: [ClusterEvent]] = [:]
    /// Reading events held per document while it reloads, at most.
    static let parkedEventLimit = 1024
}

/// Who caused a watch event: a connection of this node, or a reader on
/// another node (with `--redis`), which the event names with `node=`.
struct EventOrigin {
    /// This node's connection, which does not get its own event.
    let connection: Connection?
    /// `by=<n>`, and ` node=<name>` for another node's reader.
    let fields: String

    static func local(_ connection: Connection) -> EventOrigin {
        EventOrigin(connection: connection, fields: "by=\(connection.id)")
    }

    static func remote(_ event: ClusterEvent) -> EventOrigin {
        EventOrigin(connection: nil, fields: "by=\(event.by) node=\(event.node)")
    }

    /// A change this node learned from Redis itself (after a reconnect, or
    /// a write that found the document changed), not from an event.
    static let redis = EventOrigin(connection: nil, fields: "by=0 node=redis")
}

extension Server {
    /// Writes of one request that found a document changed by another
    /// node, retried at most (then `ERR STORE`).
    static let conflictRetries = 16

    // MARK: Start-up

    /// Keeps documents in Redis: nothing is restored, documents are loaded
    /// when first named. With `--redis-required`, waits up to 5 s for Redis.
    func openRedis(_ address: RedisAddress) throws {
        var password: String?
        if let path = configuration.redisPasswordFile {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw StartError(description: "cannot read --redis-password-file \(path)")
            }
            password = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        let node = configuration.nodeName ?? String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let redis = RedisDocuments(loop: loop, address: address, password: password, node: node)
        redis.onAvailable = { [unowned self] in clusterDidConnect() }
        redis.onEvent = { [unowned self] id, event in received(event, about: id) }
        cluster = redis
        documents.isCache = true
        Log.lifecycle("store", ["kind": "redis", "redis": address.description, "node": node])
        redis.connect()
        guard configuration.redisRequired else { return }
        // The loop runs here only for the two connections: nothing else is started yet.
        let deadline = uv_hrtime() + 5_000_000_000
        while !redis.isAvailable && redis.failures == 0 && uv_hrtime() < deadline {
            uv_run(loop, UV_RUN_NOWAIT)
            usleep(1000)
        }
        guard redis.isAvailable else {
            throw StartError(description: "Redis at \(address) cannot be reached (\(redis.unavailableReason)); --redis-required")
        }
    }

    /// After every (re)connection to Redis: what this node cached may have
    /// changed meanwhile, so each cached document's revision is compared
    /// with Redis's (newer ones reload, deleted ones go), and the watched
    /// documents are announced again.
    func clusterDidConnect() {
        guard let cluster else { return }
        for id in clusterCache.announced { cluster.announce(id, watching: true) }
        // In chunks: a node may cache many documents, and each answer is
        // handled on the loop thread.
        inChunks(documents.allIDs, of: Self.revalidationChunk) { [unowned self] ids, next in
            for id in ids {
                cluster.watchingNodes(id) { [unowned self] nodes in clusterCache.watchingNodes[id] = Set(nodes) }
            }
            cluster.revisions(of: ids) { [unowned self] result in
                guard case .success(let revisions) = result else { return }  // lost again: the next connection checks
                for (id, revision) in zip(ids, revisions) {
                    guard let document = documents[id] else { continue }
                    if revision == nil {
                        delete(document, origin: .redis)
                    } else if revision != document.revision {
                        reload(id, origin: .redis)
                    }
                }
                next()
            }
        }
    }

    /// Cached documents checked against Redis per round trip after a reconnect.
    static let revalidationChunk = 1024
    /// Documents LIST loads from Redis per round trip.
    static let listLoadChunk = 64

    /// Calls `body` with `items` a chunk at a time; each chunk starts when
    /// the one before calls its `next`.
    func inChunks(_ items: [String], of size: Int, _ body: @escaping (ArraySlice<String>, _ next: @escaping () -> Void) -> Void,
                  then done: @escaping () -> Void = {}) {
        func run(from start: Int) {
            guard start < items.count else { return done() }
            let end = min(items.count, start + size)
            body(items[start..<end]) { run(from: end) }
        }
        run(from: 0)
    }

    // MARK: Loading

    /// A request named a document this node has not cached: the reply
    /// waits while it is loaded from Redis, then the request runs again
    /// (and gets `ERR NODOC` if Redis has no such document, or
    /// `ERR UNAVAILABLE` if Redis cannot be asked).
    func loadMissingDocument(_ miss: DocumentMiss, for request: Request, on connection: Connection) {
        connection.deferReply()
        refresh(miss.id, origin: .redis) { [unowned self] result in
            if case .failure(let error) = result {
                connection.completeDeferredReply(.failure(error), tag: request.tag)
                return
            }
            let absent = documents[miss.id] == nil
            if absent { documents.confirmedAbsent.insert(miss.id) }
            connection.redispatchDeferred(request)
            if absent { documents.confirmedAbsent.remove(miss.id) }
        }
    }

    /// Brings the cached copy of `id` to Redis's revision: loads it (new
    /// to this node), reloads it in place (newer in Redis: its watchers
    /// get `! CHANGED`, views and selections keep their document), or
    /// deletes it (gone from Redis: `! DELETED`). A large text is split
    /// into sentences on the thread pool.
    func refresh(_ id: String, origin: EventOrigin, then: @escaping (Result<Void, ProtocolError>) -> Void) {
        guard let cluster else { return then(.success(())) }
        cluster.load(id) { [unowned self] result in
            switch result {
            case .failure(let error):
                then(.failure(error))
            case .success(nil):
                if let document = documents[id] { delete(document, origin: origin) }
                then(.success(()))
            case .success(let stored?):
                if let document = documents[id], document.revision >= stored.revision { return then(.success(())) }
                let record = stored.record
                guard record.text.count > LayoutService.backgroundThreshold * 2 else {
                    adopt(stored, content: DocumentContent(stored: record), origin: origin)
                    return then(.success(()))
                }
                BackgroundWork.run(on: loop, { DocumentContent(stored: record) }, then: { [unowned self] content in
                    adopt(stored, content: content, origin: origin)
                    then(.success(()))
                })
            }
        }
    }

    /// Takes a document as Redis holds it into the cache, unless the cache
    /// already has that revision or a newer one.
    private func adopt(_ stored: RedisDocuments.Stored, content: DocumentContent?, origin: EventOrigin) {
        let id = stored.record.id
        guard let content else {
            Log.error("redis_document_unreadable", ["id": id])
            return
        }
        let attachments = stored.record.attachments.map(\.inAttachRanges)
        if let document = documents[id] {
            guard document.revision < stored.revision else { return }
            let textChanged = document.text.string != content.text.string
            document.reload(with: content, attachments: attachments, revision: stored.revision)
            documentDidChange(document, origin: origin, textChanged: textChanged)
            return
        }
        documents.restore(Document(id: id, content: content, revision: stored.revision, attachments: attachments))
        cluster?.watchingNodes(id) { [unowned self] nodes in clusterCache.watchingNodes[id, default: []].formUnion(nodes) }
    }

    /// Reloads `id` once however many announcements ask for it, then sends
    /// the reading events that waited for the new revision.
    private func reload(_ id: String, origin: EventOrigin) {
        guard clusterCache.reloading[id] == nil else { return }
        clusterCache.reloading[id] = []
        refresh(id, origin: origin) { [unowned self] _ in
            let parked = clusterCache.reloading.removeValue(forKey: id) ?? []
            for event in parked { relay(event, about: id) }
        }
    }

    // MARK: Events from other nodes

    /// An event published on a document's channel.
    private func received(_ event: ClusterEvent, about id: String) {
        guard let cluster, event.node != cluster.node else { return }
        switch event.kind {
        case .watching: clusterCache.watchingNodes[id, default: []].insert(event.node)
        case .unwatched: clusterCache.watchingNodes[id]?.remove(event.node)
        case .changed, .deleted:
            guard let document = documents[id], document.revision < event.revision else { return }
            if case .deleted = event.kind {
                delete(document, origin: .remote(event))
            } else {
                reload(id, origin: .remote(event))
            }
        case .tap, .select, .clear:
            guard let document = documents[id], readers.hasWatchers(document) else { return }
            if event.revision > document.revision {
                // Its CHANGED came first; the reload it started is under way.
                if clusterCache.reloading[id] == nil { reload(id, origin: .redis) }
                if clusterCache.reloading[id]!.count < ClusterCache.parkedEventLimit { clusterCache.reloading[id]!.append(event) }
                return
            }
            relay(event, about: id)
        }
    }

    /// Sends another node's TAP, SELECT or CLEAR to this node's watchers,
    /// each in its own view, as a local one would be (with `node=`).
    /// Only an event of the revision cached here, naming a sentence as it
    /// is here, is sent.
    private func relay(_ event: ClusterEvent, about id: String) {
        guard let document = documents[id], document.revision == event.revision else { return }
        let origin = EventOrigin.remote(event)
        func sentenceMatches(_ number: Int, _ range: Range<Int>) -> Bool {
            number < document.sentences.count && document.sentences[number].content == range
        }
        switch event.kind {
        case .tap(let number, let range):
            guard sentenceMatches(number, range) else { return }
            broadcast(document, from: nil, range: range) { unit in
                "TAP \(id) \(origin.fields) revision=\(document.revision) sentence=\(number) range=\(document.wireRange(range, unit: unit))"
            }
        case .select(let added, let number, let range):
            guard sentenceMatches(number, range) else { return }
            broadcast(document, from: nil, range: range) { unit in
                "SELECT \(id) \(origin.fields) revision=\(document.revision) \(added ? "added" : "removed") sentence=\(number) range=\(document.wireRange(range, unit: unit))"
            }
        case .clear:
            broadcast(document, from: nil, range: nil) { _ in "CLEAR \(id) \(origin.fields)" }
        default:
            break
        }
    }

    // MARK: Events to other nodes

    /// Publishes a reader's TAP, SELECT or CLEAR for the other nodes, when
    /// another node's readers watch the document.
    func publishReading(_ document: Document, by connection: Connection, _ kind: ClusterEvent.Kind) {
        guard let cluster, clusterCache.watchingNodes[document.id]?.isEmpty == false else { return }
        cluster.publish(document.id, ClusterEvent(
            database: cluster.address.database, node: cluster.node, by: connection.id, revision: document.revision, kind: kind))
    }

    /// After a WATCH: the first of this node's watchers of a document is
    /// announced to the other nodes, and `reply` waits until Redis has
    /// passed the announcement on, so that a TAP another node serves after
    /// the watcher's `OK` is sent to it. Returns false when there is
    /// nothing to wait for (`reply` is then not called).
    func announceWatching(_ document: Document, then reply: @escaping () -> Void) -> Bool {
        guard let cluster else { return false }
        let id = document.id
        if clusterCache.announcing[id] != nil {
            clusterCache.announcing[id]!.append(reply)
            return true
        }
        guard !clusterCache.announced.contains(id), cluster.isAvailable else { return false }
        clusterCache.announced.insert(id)
        clusterCache.announcing[id] = [reply]
        cluster.announce(id, watching: true) { [unowned self] in
            for waiting in clusterCache.announcing.removeValue(forKey: id) ?? [] { waiting() }
        }
        return true
    }

    /// Once a second: documents this node announced and no longer watches
    /// (its watchers unwatched or left) are announced unwatched.
    func announceUnwatched() {
        guard let cluster else { return }
        for id in clusterCache.announced where clusterCache.announcing[id] == nil && !(documents[id].map(readers.hasWatchers) ?? false) {
            clusterCache.announced.remove(id)
            cluster.announce(id, watching: false)
        }
    }

    // MARK: Writes

    /// A write as the Redis script takes it: each document with the
    /// revision this node has of it (the script refuses the write if Redis
    /// has another) and its whole new record.
    func clusterWrites(for write: StoreWrite) throws -> [RedisDocuments.DocumentWrite] {
        func cached(_ id: String) throws -> Document { try documents.require(id) }
        func record(of document: Document, attachments: [AttachmentRecord]) -> DocumentRecord {
            DocumentRecord(id: document.id, text: Array(document.text.string.utf8), language: document.requestedLanguage?.tag,
                           segmentation: document.mode.rawValue, attachments: attachments)
        }
        switch write {
        case .put(let record):
            return [.init(id: record.id, expected: documents[record.id]?.revision, record: record)]
        case .putAll(let records):
            return records.map { .init(id: $0.id, expected: documents[$0.id]?.revision, record: $0) }
        case .delete(let id):
            return [.init(id: id, expected: try cached(id).revision, record: nil)]
        case .setAttachment(let attachment, let id):
            let document = try cached(id)
            var attachments = document.attachments
            attachments.set(attachment)
            return [.init(id: id, expected: document.revision, record: record(of: document, attachments: attachments))]
        case .removeAttachment(let name, let id):
            let document = try cached(id)
            return [.init(id: id, expected: document.revision,
                          record: record(of: document, attachments: document.attachments.filter { $0.name != name }))]
        }
    }
}
