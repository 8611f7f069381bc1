// RedisDocuments.swift: the documents of lecternd --redis, kept in Redis.

import CUV
import Foundation
import LecternProtocol
import LecternRedis
import LecternStore
import LecternUV

/// A node's link to Redis: two connections on the daemon's loop (hiredis),
/// one for the write script, loads and PUBLISH, one subscribed to every
/// document's channel. Loop thread only.
///
/// Available once both are up, the write script is loaded and the
/// subscription confirmed. When either connection fails, both are closed,
/// the node is unavailable (writes get `ERR UNAVAILABLE`) and it connects
/// again after 100 ms, doubling to 5 s; ``onAvailable`` runs on every
/// (re)connection, so that the server can check what it cached against
/// Redis (it may have missed events meanwhile).
final class RedisDocuments {
    /// A document as Redis holds it.
    struct Stored {
        let record: DocumentRecord
        let revision: Int
    }

    /// One document of a write: its expected revision (nil: absent), and
    /// its new record (nil: delete).
    struct DocumentWrite {
        let id: String
        let expected: Int?
        let record: DocumentRecord?
    }

    /// Why a write did not commit.
    enum WriteFailure: Error {
        /// A document was not at the expected revision: nothing was written.
        case conflict(id: String)
        case failed(ProtocolError)
    }

    let address: RedisAddress
    let node: String
    private let password: String?
    private let loop: UnsafeMutablePointer<uv_loop_t>
    private var commands: RedisConnection?
    private var events: RedisConnection?
    private var scriptSHA: String?
    private var isSubscribed = false
    /// Which connection attempt callbacks belong to: a late callback of a
    /// closed attempt finds another number and does nothing.
    private var attempt = 0
    private var retryDelay: UInt64 = RedisDocuments.firstRetryDelay
    private var retryTimer: UnsafeMutablePointer<uv_timer_t>?
    private var isClosed = false
    /// Whether both connections are up and ready.
    private(set) var isAvailable = false
    /// Why Redis is not available, while it is not.
    private(set) var unavailableReason = "connecting to Redis"
    /// Connection attempts that failed since start.
    private(set) var failures = 0
    /// Writes sent and not yet answered, for STATS.
    private(set) var pendingWrites = 0

    /// Runs on the loop thread each time the node becomes available.
    var onAvailable: () -> Void = {}
    /// Runs with each well-formed event of this database (and its
    /// document id), including the node's own.
    var onEvent: (_ id: String, _ event: ClusterEvent) -> Void = { _, _ in }

    static let firstRetryDelay: UInt64 = 100
    static let longestRetryDelay: UInt64 = 5_000

    init(loop: UnsafeMutablePointer<uv_loop_t>, address: RedisAddress, password: String?, node: String) {
        self.loop = loop
        self.address = address
        self.password = password
        self.node = node
    }

    // MARK: Connecting

    /// Opens both connections (again).
    func connect() {
        guard !isClosed else { return }
        attempt += 1
        let current = attempt
        scriptSHA = nil
        isSubscribed = false
        let commands = RedisConnection(loop: loop, host: address.host, port: address.port,
            onConnect: { [weak self] why in if let why { self?.lost(why, attempt: current) } },
            onClose: { [weak self] why in self?.lost(why ?? "the connection closed", attempt: current) })
        guard attempt == current else { return }  // failed at once
        self.commands = commands
        let events = RedisConnection(loop: loop, host: address.host, port: address.port,
            onConnect: { [weak self] why in if let why { self?.lost(why, attempt: current) } },
            onClose: { [weak self] why in self?.lost(why ?? "the connection closed", attempt: current) })
        guard attempt == current else { return }
        self.events = events
        for connection in [commands, events] { authenticate(connection, attempt: current) }
        if address.database != 0 {
            commands.send(["SELECT", String(address.database)]) { [weak self] reply in
                if case .error(let why) = reply { self?.lost("SELECT \(self?.address.database ?? 0): \(why)", attempt: current) }
            }
        }
        commands.send(["SCRIPT", "LOAD", RedisWriteScript.source]) { [weak self] reply in
            guard let self, attempt == current else { return }
            guard let sha = reply.string, case .bulk = reply else {
                return lost("SCRIPT LOAD failed: \(reply)", attempt: current)
            }
            scriptSHA = sha
            becomeAvailableIfReady()
        }
        events.subscribe(pattern: RedisKeys.channelPattern, confirmed: { [weak self] in
            guard let self, attempt == current else { return }
            isSubscribed = true
            becomeAvailableIfReady()
        }, message: { [weak self] channel, payload in
            guard let self, attempt == current else { return }
            received(channel: channel, payload: payload)
        })
    }

    private func authenticate(_ connection: RedisConnection, attempt current: Int) {
        guard let password else { return }
        connection.send(["AUTH", password]) { [weak self] reply in
            if case .error(let why) = reply { self?.lost("Redis refused the password of --redis-password-file: \(why)", attempt: current) }
        }
    }

    private func becomeAvailableIfReady() {
        guard !isAvailable, scriptSHA != nil, isSubscribed else { return }
        isAvailable = true
        retryDelay = Self.firstRetryDelay
        Log.lifecycle("redis_connected", ["redis": address.description, "node": node])
        onAvailable()
    }

    /// A connection of attempt `current` failed: both go, and a new attempt is timed.
    private func lost(_ why: String, attempt current: Int) {
        guard current == attempt, !isClosed else { return }
        attempt += 1  // what the old connections still report is ignored
        failures += 1
        let wasAvailable = isAvailable
        isAvailable = false
        unavailableReason = why
        let old = [commands, events]
        commands = nil
        events = nil
        for connection in old { connection?.close() }
        Log.warning(wasAvailable ? "redis_lost" : "redis_unreachable", [
            "redis": address.description, "reason": why, "retry_ms": retryDelay,
            "message": "writes get ERR UNAVAILABLE until Redis answers again; cached documents are still read",
        ])
        scheduleRetry()
    }

    private func scheduleRetry() {
        if retryTimer == nil {
            let timer = LoopHandle.allocate(uv_timer_t.self)
            uv_timer_init(loop, timer)
            LoopHandle.bind(timer, to: self)
            retryTimer = timer
        }
        guard let retryTimer else { return }
        uv_timer_start(retryTimer, { handle in
            LoopHandle.owner(of: handle, as: RedisDocuments.self)?.connect()
        }, retryDelay, 0)
        retryDelay = min(Self.longestRetryDelay, retryDelay * 2)
    }

    /// Closes both connections for good (shutdown); replies still due run.
    func close() {
        isClosed = true
        isAvailable = false
        unavailableReason = "the daemon is shutting down"
        commands?.close()
        events?.close()
        if let retryTimer { LoopHandle.close(retryTimer) }
        retryTimer = nil
    }

    // MARK: Commands

    private var unavailable: ProtocolError {
        ProtocolError(.unavailable, "Redis at \(address) cannot be reached (\(unavailableReason)); nothing was written, try again or another node")
    }

    /// Runs the write script; `then` gets the new revisions, in order.
    func write(_ documents: [DocumentWrite], by connection: UInt64, limit: Int,
               then: @escaping (Result<[Int], WriteFailure>) -> Void) {
        guard isAvailable, let commands, let scriptSHA else { return then(.failure(.failed(unavailable))) }
        var keys: [[UInt8]] = []
        var arguments: [[UInt8]] = [
            Array(String(documents.count).utf8), Array(String(limit).utf8),
            Array(String(Int(Date().timeIntervalSince1970 * 1000)).utf8),
            Array(ClusterEvent.origin(database: address.database, node: node, by: connection).utf8),
        ]
        for document in documents {
            keys.append(Array(RedisKeys.document(document.id).utf8))
            keys.append(Array(RedisKeys.revision(document.id).utf8))
            arguments.append(Array(document.id.utf8))
            arguments.append(Array((document.expected.map(String.init) ?? "-").utf8))
            if let record = document.record {
                arguments += [Array("put".utf8), record.text, Array((record.language ?? "").utf8),
                              Array(record.segmentation.utf8), Self.encode(record.attachments)]
            } else {
                arguments += [Array("del".utf8), [], [], [], []]
            }
        }
        keys.append(Array(RedisKeys.ids.utf8))
        let command: [[UInt8]] = [Array("EVALSHA".utf8), Array(scriptSHA.utf8), Array(String(keys.count).utf8)] + keys + arguments
        pendingWrites += 1
        commands.send(command) { [weak self] reply in
            self?.pendingWrites -= 1
            then(self?.writeResult(reply, count: documents.count, limit: limit)
                ?? .failure(.failed(ProtocolError(.unavailable, "the daemon is shutting down"))))
        }
    }

    private func writeResult(_ reply: RedisReply, count: Int, limit: Int) -> Result<[Int], WriteFailure> {
        switch reply {
        case .array(let values):
            let revisions = values.compactMap { value -> Int? in
                if case .integer(let revision) = value { return Int(revision) } else { return nil }
            }
            guard revisions.count == count else {
                return .failure(.failed(ProtocolError(.store, "Redis answered the write with \(reply); it may or may not have been applied")))
            }
            return .success(revisions)
        case .error(let text) where text.hasPrefix("CONFLICT "):
            return .failure(.conflict(id: String(text.dropFirst("CONFLICT ".count))))
        case .error(let text) where text.hasPrefix("TOOMANY "):
            return .failure(.failed(ProtocolError(.tooMany, "Redis holds at most \(limit) documents (--max-documents); DEL some first")))
        case .error(let text) where text.hasPrefix("NOSCRIPT"):
            // Redis lost its scripts (SCRIPT FLUSH, a restart the node has
            // not noticed yet): load again, and say so.
            lost("Redis no longer has the write script (\(text))", attempt: attempt)
            return .failure(.failed(ProtocolError(.unavailable, "Redis had lost the write script; nothing was written, try again")))
        case .error(let text):
            return .failure(.failed(ProtocolError(.store, "Redis refused the write: \(text); nothing was written")))
        case .disconnected(let why):
            return .failure(.failed(ProtocolError(.unavailable, "the connection to Redis was lost before it answered (\(why)); the write may or may not have been applied: read the document to know")))
        default:
            return .failure(.failed(ProtocolError(.store, "Redis answered the write with \(reply); it may or may not have been applied")))
        }
    }

    /// Reads a document (nil: there is none).
    func load(_ id: String, then: @escaping (Result<Stored?, ProtocolError>) -> Void) {
        guard isAvailable, let commands else { return then(.failure(unavailableRead(id))) }
        commands.send(["HGETALL", RedisKeys.document(id)]) { [weak self] reply in
            guard let self else { return }
            guard case .array(let values) = reply else { return then(.failure(unavailableRead(id))) }
            then(.success(Self.decode(id: id, values)))
        }
    }

    private func unavailableRead(_ id: String) -> ProtocolError {
        ProtocolError(.unavailable, "'\(id)' is not cached on this node and Redis at \(address) cannot be reached (\(unavailableReason)); nothing was done, try again or another node")
    }

    /// The current revisions of `ids` (nil: deleted), in order.
    func revisions(of ids: ArraySlice<String>, then: @escaping (Result<[Int?], ProtocolError>) -> Void) {
        let ids = Array(ids)
        guard isAvailable, let commands else { return then(.failure(unavailable)) }
        guard !ids.isEmpty else { return then(.success([])) }
        var answers = [Int?](repeating: nil, count: ids.count)
        var remaining = ids.count
        var failed = false
        for (index, id) in ids.enumerated() {
            commands.send(["HGET", RedisKeys.document(id), "revision"]) { [weak self] reply in
                guard let self else { return }
                switch reply {
                case .bulk: answers[index] = reply.string.flatMap { Int($0) }
                case .null: answers[index] = nil
                default: failed = true
                }
                remaining -= 1
                if remaining == 0 { then(failed ? .failure(unavailable) : .success(answers)) }
            }
        }
    }

    /// Every id starting with `prefix`, in byte order.
    func ids(withPrefix prefix: String, then: @escaping (Result<[String], ProtocolError>) -> Void) {
        guard isAvailable, let commands else {
            return then(.failure(ProtocolError(.unavailable, "LIST needs Redis at \(address), which cannot be reached (\(unavailableReason)); try again or another node")))
        }
        // ZRANGEBYLEX [prefix (prefix + 0xFF: every member that starts with it.
        let start = Array("[".utf8) + Array(prefix.utf8)
        let end = prefix.isEmpty ? Array("+".utf8) : Array("(".utf8) + Array(prefix.utf8) + [0xFF]
        commands.send([Array("ZRANGEBYLEX".utf8), Array(RedisKeys.ids.utf8), prefix.isEmpty ? Array("-".utf8) : start, end]) { [weak self] reply in
            guard let self else { return }
            guard case .array(let values) = reply else { return then(.failure(unavailable)) }
            then(.success(values.compactMap(\.string)))
        }
    }

    /// The nodes other than this one whose readers watch `id`.
    func watchingNodes(_ id: String, then: @escaping ([String]) -> Void) {
        guard isAvailable, let commands else { return then([]) }
        commands.send(["SMEMBERS", RedisKeys.watching(id)]) { [weak self] reply in
            guard let self, case .array(let values) = reply else { return then([]) }
            then(values.compactMap(\.string).filter { $0 != self.node })
        }
    }

    /// Says whether this node's readers watch `id` (in the document's
    /// watching set, and to the other nodes at once).
    /// `then` runs once Redis has answered the PUBLISH (it has then written
    /// the announcement to every node's subscription), or at once when
    /// Redis cannot be reached.
    func announce(_ id: String, watching: Bool, then: @escaping () -> Void = {}) {
        guard isAvailable, let commands else { return then() }
        commands.send([watching ? "SADD" : "SREM", RedisKeys.watching(id), node]) { _ in }
        let event = ClusterEvent(database: address.database, node: node, by: 0, revision: 0, kind: watching ? .watching : .unwatched)
        commands.send(["PUBLISH", RedisKeys.channel(id), event.encoded]) { _ in then() }
    }

    /// Publishes an event of this node on the document's channel (best
    /// effort: a node that cannot reach Redis tells only its own watchers).
    func publish(_ id: String, _ event: ClusterEvent) {
        guard isAvailable, let commands else { return }
        commands.send(["PUBLISH", RedisKeys.channel(id), event.encoded]) { _ in }
    }

    private func received(channel: [UInt8], payload: [UInt8]) {
        guard let id = RedisKeys.documentID(inChannel: channel), let event = ClusterEvent(message: payload) else {
            Log.debug("redis_event_ignored", ["bytes": payload.count])
            return
        }
        guard event.database == address.database else { return }
        onEvent(id, event)
    }

    // MARK: Records

    /// Attachments as JSON (the records' own Codable form).
    static func encode(_ attachments: [AttachmentRecord]) -> [UInt8] {
        guard !attachments.isEmpty, let data = try? JSONEncoder().encode(attachments) else { return Array("[]".utf8) }
        return Array(data)
    }

    /// A document from HGETALL's field/value list; nil when there is none
    /// (or it lacks the fields every write sets).
    static func decode(id: String, _ values: [RedisReply]) -> Stored? {
        var fields: [String: [UInt8]] = [:]
        var index = 0
        while index + 1 < values.count {
            if let key = values[index].string, case .bulk(let value) = values[index + 1] { fields[key] = value }
            index += 2
        }
        guard let text = fields["text"], let mode = fields["mode"], let revisionText = fields["revision"],
              let revision = Int(String(decoding: revisionText, as: UTF8.self))
        else { return nil }
        let language = fields["lang"].flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
        let attachments = fields["attachments"].flatMap { try? JSONDecoder().decode([AttachmentRecord].self, from: Data($0)) } ?? []
        return Stored(
            record: DocumentRecord(id: id, text: text, language: language, segmentation: String(decoding: mode, as: UTF8.self), attachments: attachments),
            revision: revision)
    }
}
