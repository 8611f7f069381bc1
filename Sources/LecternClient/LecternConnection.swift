// LecternConnection.swift: one connection to lecternd: requests, replies, events.

import Foundation

/// A connection to a `lecternd` daemon, with an async method per protocol
/// command (in the extensions `LecternConnection+*.swift`).
///
/// ```swift
/// let lectern = try await LecternConnection.connect(host: "127.0.0.1", port: 7878)
/// try await lectern.put("intro", text: "Dr. Smith arrived. He was late!")
/// try await lectern.view("intro", ViewOptions(width: 320))
/// if case .hit(let highlight, _, _, _) = try await lectern.tap("intro", at: Point(x: 30, y: 10)) {
///     print(highlight.sentence.text, highlight.rects)
/// }
/// ```
///
/// **Pipelining.** Every request carries a tag (`@n`) and is written as
/// soon as it is made; any number may be in flight, from any number of
/// tasks, and each caller gets the reply with its tag. Replies are matched
/// by tag, not by order, so a caller that is cancelled while waiting simply
/// stops waiting (the daemon still runs the request; its reply is dropped).
///
/// **Deadlines.** A reply is awaited for as long as it takes unless the
/// connection was made with a `requestTimeout`: then a request whose reply
/// has not come in that time fails with ``LecternError/requestTimeout``
/// instead of waiting (the reply, if it comes later, is dropped, and the
/// connection stays usable), so a client that must never hang can say so.
///
/// **Events** never mix with replies: document events come from
/// ``events(for:)``, typewriter events from the ``TypewriterStream`` that
/// ``type(_:_:)`` returns, and the connection's own ups and downs from
/// ``connectionEvents()``.
///
/// **Concurrency.** This is a `final class` guarded by one lock rather than
/// an actor: a reader thread resolves replies and routes events the moment
/// they are decoded, and a request is registered under its tag and queued
/// for writing — both without an executor hop per line. The lock
/// is held only to update tables, never across I/O or `await`, so every
/// method may be called from any task or thread; hence `Sendable`.
///
/// - Complexity: each request costs O(size of its reply) to decode, plus
///   O(1) to match by tag.
public final class LecternConnection: @unchecked Sendable {
    /// The daemons this connection may be on, in the order first tried: one
    /// for a connection made to one endpoint, several for
    /// ``connect(nodes:timeout:requestTimeout:reconnect:maximumLineLength:)``.
    public let nodes: [Endpoint]

    /// The node this connection is on: the one it connected to and, after a
    /// reconnect, the one it reconnected to (while reconnecting, the one it
    /// lost). Always the only node of a connection made to one endpoint.
    public var endpoint: Endpoint { withLock { nodes[$0.node] } }

    let connectTimeout: Duration
    /// How long a request waits for its reply; `nil`: as long as it takes.
    public let requestTimeout: Duration?
    let reconnectPolicy: ReconnectPolicy?
    let maximumLineLength: Int
    let lock = NSLock()
    /// Everything mutable; read and written only while holding ``lock``.
    var state = State()

    /// A request waiting for its reply.
    struct Pending {
        /// `nil` once the caller stopped waiting (task cancelled).
        var continuation: CheckedContinuation<Response, Error>?
        /// TYPE: an `OK` reply opens a typewriter stream.
        var opensStream: Bool
        /// With a ``requestTimeout``: the task that fails the request when
        /// its time is up; cancelled when the reply comes first.
        var deadline: Task<Void, Never>?
    }

    /// A reply, and the events of the stream it opened (TYPE only).
    struct Response: Sendable {
        var reply: Reply
        var stream: AsyncThrowingStream<TypewriterEvent, Error>?
    }

    /// What the connection remembers so that a reconnect can restore it.
    struct Session {
        var helloName: String?
        var helloUnits: OffsetUnit?
        var saidHello = false
        /// The token of the last successful AUTH, kept to repeat it.
        var authToken: String?
        var views: [String: ViewOptions] = [:]
        var watches: Set<String> = []
    }

    struct State {
        var transport: Transport?
        /// The index in ``nodes`` of the node ``transport`` is (or was last) connected to.
        var node = 0
        var generation = 0
        var nextTag = 0
        var pending: [Int: Pending] = [:]
        /// Set by close() and QUIT: the end of the stream is expected.
        var closing = false
        var closedError: LecternError?
        /// An `ERR` that answered no request (MAXCLIENTS): why the daemon is
        /// about to close the connection.
        var unsolicitedError: LecternError?
        var session = Session()
        var hello: Hello?
        var units = OffsetUnit.utf16
        var eventSinks: [UUID: (document: String?, continuation: AsyncStream<DocumentEvent>.Continuation)] = [:]
        var connectionSinks: [UUID: AsyncStream<ConnectionEvent>.Continuation] = [:]
        var streams: [Int: AsyncThrowingStream<TypewriterEvent, Error>.Continuation] = [:]
    }

    init(
        nodes: [Endpoint], connectTimeout: Duration, requestTimeout: Duration?, reconnectPolicy: ReconnectPolicy?,
        maximumLineLength: Int
    ) {
        self.nodes = nodes
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.reconnectPolicy = reconnectPolicy
        self.maximumLineLength = maximumLineLength
    }

    /// The last reference is gone: the socket is shut down, and event
    /// sequences still being iterated end, so no consumer waits forever.
    deinit {
        state.transport?.shutdown()
        for sink in state.eventSinks.values { sink.continuation.finish() }
        for sink in state.connectionSinks.values {
            sink.yield(.closed(.closed))
            sink.finish()
        }
    }

    // MARK: Connecting

    /// The default longest line accepted from the daemon: 64 MiB, the
    /// daemon's default `--output-hard-limit` (no reply line can be longer).
    public static let defaultMaximumLineLength = 64 << 20

    /// Connects over TCP.
    ///
    /// - Parameters:
    ///   - host: a host name or an IPv4/IPv6 address; every address it
    ///     resolves to is tried in turn.
    ///   - port: lecternd's port (default 7878).
    ///   - timeout: the time allowed for resolving and connecting.
    ///   - requestTimeout: the time each request waits for its reply before
    ///     it fails with ``LecternError/requestTimeout`` (default: no limit).
    ///     It covers the reply only: a TYPE's ticks and WATCH's events come
    ///     when they come.
    ///   - reconnect: reconnect automatically when the connection drops (default: don't).
    ///   - maximumLineLength: the longest reply line accepted.
    /// - Throws: ``LecternError/connectTimeout``, ``LecternError/connectionFailed(_:)``.
    public static func connect(
        host: String = "127.0.0.1", port: UInt16 = 7878, timeout: Duration = .seconds(10),
        requestTimeout: Duration? = nil, reconnect: ReconnectPolicy? = nil, maximumLineLength: Int = defaultMaximumLineLength
    ) async throws -> LecternConnection {
        try await connect(
            to: .tcp(host: host, port: port), timeout: timeout, requestTimeout: requestTimeout, reconnect: reconnect,
            maximumLineLength: maximumLineLength)
    }

    /// Connects to a Unix-domain socket (`lecternd --unix-socket PATH`).
    ///
    /// - Throws: ``LecternError/connectTimeout``, ``LecternError/connectionFailed(_:)``.
    public static func connect(
        unixSocket path: String, timeout: Duration = .seconds(10), requestTimeout: Duration? = nil,
        reconnect: ReconnectPolicy? = nil, maximumLineLength: Int = defaultMaximumLineLength
    ) async throws -> LecternConnection {
        try await connect(
            to: .unix(path: path), timeout: timeout, requestTimeout: requestTimeout, reconnect: reconnect,
            maximumLineLength: maximumLineLength)
    }

    /// Connects to `endpoint`.
    ///
    /// - Throws: ``LecternError/connectTimeout``, ``LecternError/connectionFailed(_:)``.
    public static func connect(
        to endpoint: Endpoint, timeout: Duration = .seconds(10), requestTimeout: Duration? = nil,
        reconnect: ReconnectPolicy? = nil, maximumLineLength: Int = defaultMaximumLineLength
    ) async throws -> LecternConnection {
        try await connect(
            nodes: [endpoint], timeout: timeout, requestTimeout: requestTimeout, reconnect: reconnect,
            maximumLineLength: maximumLineLength)
    }

    /// Connects to the first of several daemons that answers: nodes serving
    /// one document space (`lecternd --redis`), tried in the order given.
    ///
    /// A lost connection is re-established on the next node of the list
    /// (round-robin, the lost node last) when `reconnect` is set; see
    /// ``ReconnectPolicy`` for the order and the backoff. ``endpoint`` says
    /// which node the connection is on.
    ///
    /// ```swift
    /// let lectern = try await LecternConnection.connect(
    ///     nodes: [.tcp(host: "reader-a.local", port: 7878), .tcp(host: "reader-b.local", port: 7878)],
    ///     reconnect: ReconnectPolicy(maximumAttempts: 20))
    /// ```
    ///
    /// - Parameters:
    ///   - nodes: the daemons, at least one.
    ///   - timeout: the time allowed for each node's resolving and connecting.
    ///   - requestTimeout, reconnect, maximumLineLength: as for
    ///     ``connect(host:port:timeout:requestTimeout:reconnect:maximumLineLength:)``.
    /// - Throws: with one node, that node's ``LecternError/connectTimeout`` or
    ///   ``LecternError/connectionFailed(_:)``; with several, when none
    ///   answers, ``LecternError/connectionFailed(_:)`` naming every node
    ///   tried and why it failed.
    /// - Complexity: at most one connect per node, one after another.
    public static func connect(
        nodes: [Endpoint], timeout: Duration = .seconds(10), requestTimeout: Duration? = nil,
        reconnect: ReconnectPolicy? = nil, maximumLineLength: Int = defaultMaximumLineLength
    ) async throws -> LecternConnection {
        precondition(!nodes.isEmpty, "nodes must name at least one endpoint")
        precondition(maximumLineLength > 0, "maximumLineLength must be positive")
        precondition(requestTimeout.map { $0 > .zero } ?? true, "requestTimeout must be positive")
        var failures: [(node: Endpoint, error: Error)] = []
        for (index, node) in nodes.enumerated() {
            do {
                let socket = try await openSocket(node, timeout: timeout)
                let connection = LecternConnection(
                    nodes: nodes, connectTimeout: timeout, requestTimeout: requestTimeout, reconnectPolicy: reconnect,
                    maximumLineLength: maximumLineLength)
                connection.install(socket, node: index)
                return connection
            } catch {
                failures.append((node, error))
            }
        }
        if failures.count == 1, let only = failures.first { throw only.error }
        throw noNodeAnswered(failures)
    }

    /// `connectionFailed("no node answered: 127.0.0.1:7001: Connection refused; 127.0.0.1:7002: connect timed out")`.
    static func noNodeAnswered(_ failures: [(node: Endpoint, error: Error)]) -> LecternError {
        let reasons = failures.map { failure -> String in
            switch failure.error as? LecternError {
            case .connectionFailed(let reason) where reason.hasPrefix("\(failure.node)"): return reason
            case .connectionFailed(let reason): return "\(failure.node): \(reason)"
            case let error?: return "\(failure.node): \(error)"
            case nil: return "\(failure.node): \(failure.error)"
            }
        }
        return .connectionFailed("no node answered: " + reasons.joined(separator: "; "))
    }

    /// Connects on a Dispatch thread, so the blocking connect and name
    /// lookup never hold up Swift's cooperative thread pool.
    static func openSocket(_ endpoint: Endpoint, timeout: Duration) async throws -> Socket {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Socket.connect(to: endpoint, timeout: timeout) })
            }
        }
    }

    /// Makes `socket`, connected to `nodes[node]`, the connection's
    /// transport and starts reading from it.
    func install(_ socket: Socket, node: Int) {
        let transport = withLock { state -> Transport in
            state.node = node
            state.generation += 1
            let transport = Transport(socket: socket, generation: state.generation)
            state.transport = transport
            return transport
        }
        transport.startReading(
            maximumLineLength: maximumLineLength,
            deliver: { [weak self] message in self?.receive(message) },
            finish: { [weak self] end in self?.transportEnded(transport.generation, end) })
    }

    /// Closes the connection: waiting requests fail with
    /// ``LecternError/closed``, event sequences end, no reconnect follows.
    /// Calling it again does nothing.
    public func close() {
        let transport = withLock { state -> Transport? in
            state.closing = true
            return state.transport
        }
        transport?.shutdown()
        if transport == nil { finishForGood(.closed) }
    }

    /// Whether a transport is up (false while reconnecting and after close).
    public var isConnected: Bool { withLock { $0.transport != nil } }

    /// The reply to this connection's latest HELLO, if it sent one.
    public var hello: Hello? { withLock { $0.hello } }

    /// The offset unit of every offset this connection sends and receives
    /// (``OffsetUnit/utf16`` until a HELLO chooses another).
    public var units: OffsetUnit { withLock { $0.units } }

    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    // MARK: Requests

    /// Sends `line` and waits for its reply.
    ///
    /// - Throws: ``LecternError/server(code:message:)`` for an `ERR` reply,
    ///   a connection error, ``LecternError/requestTimeout`` when the reply
    ///   is later than ``requestTimeout``, or `CancellationError` when the
    ///   task is cancelled before the reply comes.
    func send(_ line: RequestLine, opensStream: Bool = false) async throws -> Response {
        let tag = withLock { state -> Int in
            state.nextTag += 1
            return state.nextTag
        }
        // Encoded before taking the lock: a large PUT must not hold up the reader thread.
        let bytes = line.encoded(tag: tag)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                withLock { state in
                    guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                    guard let transport = state.transport else {
                        return continuation.resume(throwing: state.closedError ?? (state.closing ? .closed : .notConnected))
                    }
                    if line.command == "QUIT" { state.closing = true }
                    state.pending[tag] = Pending(
                        continuation: continuation, opensStream: opensStream, deadline: requestTimeout.map { expire(tag, after: $0) })
                    transport.send(bytes)
                }
            }
        } onCancel: {
            stopWaiting(tag, with: CancellationError())
        }
    }

    /// The caller of request `tag` stops waiting and gets `error`. The
    /// request stays registered, so its reply, when it comes, is matched
    /// and dropped (and a stream it opened is stopped).
    private func stopWaiting(_ tag: Int, with error: Error) {
        let continuation = withLock { state -> CheckedContinuation<Response, Error>? in
            let continuation = state.pending[tag]?.continuation
            state.pending[tag]?.continuation = nil
            state.pending[tag]?.deadline?.cancel()
            return continuation
        }
        continuation?.resume(throwing: error)
    }

    /// A task that fails request `tag` with ``LecternError/requestTimeout``
    /// once `timeout` has passed, unless it is cancelled first.
    private func expire(_ tag: Int, after timeout: Duration) -> Task<Void, Never> {
        Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.stopWaiting(tag, with: LecternError.requestTimeout)
        }
    }

    /// Sends `line` and returns the reply (for commands that open no stream).
    func request(_ line: RequestLine) async throws -> Reply {
        try await send(line).reply
    }

    /// Sends a request nobody waits for (STOP for an abandoned stream).
    func sendDetached(_ line: RequestLine) {
        Task { _ = try? await self.send(line) }
    }

    // MARK: Reading (on the reader thread)

    private func receive(_ message: ServerMessage) {
        switch message {
        case .ok(let reply):
            complete(tag: reply.tag, with: .success(reply))
        case .failure(let tag, let code, let message):
            complete(tag: tag, with: .failure(LecternError.server(code: code, message: message)))
        case .event(let text):
            route(event: text)
        }
    }

    /// Hands a reply to the request with its tag; a reply without a tag
    /// (MAXCLIENTS, TOOLONG) goes to the oldest request, since replies come
    /// in request order. An `ERR` that answers no request is kept as the
    /// reason the daemon is about to close the connection.
    private func complete(tag: String?, with result: Result<Reply, LecternError>) {
        let resolved = withLock { state -> (CheckedContinuation<Response, Error>?, Result<Response, LecternError>)? in
            let key = tag.map { Int($0.dropFirst()) } ?? state.pending.keys.min()
            guard let key, let pending = state.pending.removeValue(forKey: key) else {
                if case .failure(let error) = result { state.unsolicitedError = error }
                return nil
            }
            pending.deadline?.cancel()
            var response = result.map { Response(reply: $0, stream: nil) }
            if pending.opensStream, case .success(let reply) = result {
                response = openStream(for: reply, in: &state, abandoned: pending.continuation == nil)
            }
            return (pending.continuation, response)
        }
        guard let (continuation, response) = resolved else { return }
        continuation?.resume(with: response.mapError { $0 as Error })
    }

    /// Registers the event stream of a TYPE reply before any of its events
    /// can be read, so none is lost. A stream whose caller stopped waiting
    /// is stopped on the daemon at once.
    private func openStream(for reply: Reply, in state: inout State, abandoned: Bool) -> Result<Response, LecternError> {
        do {
            let stream = try reply.fields().int("stream")
            if abandoned {
                sendDetached(Self.streamRequest("STOP", stream))
                return .success(Response(reply: reply, stream: nil))
            }
            let (events, continuation) = AsyncThrowingStream.makeStream(of: TypewriterEvent.self, throwing: Error.self)
            continuation.onTermination = { [weak self] termination in
                if case .cancelled = termination { self?.abandonStream(stream) }
            }
            state.streams[stream] = continuation
            return .success(Response(reply: reply, stream: events))
        } catch {
            return .failure(error as? LecternError ?? .malformedReply(reply.text))
        }
    }

    /// The consumer of a typewriter stream went away: STOP it, unless it ended.
    private func abandonStream(_ stream: Int) {
        let running = withLock { $0.streams.removeValue(forKey: stream) != nil }
        guard running else { return }
        sendDetached(Self.streamRequest("STOP", stream))
    }

    private func route(event text: String) {
        // An event this SDK cannot read is skipped: it is not part of any
        // reply, so the stream stays in step, and a newer daemon may add events.
        guard let fields = try? ReplyFields(text) else { return }
        if let (stream, event) = (try? TypewriterEvent.parse(fields)) ?? nil {
            let continuation = withLock { state in
                if case .done = event { return state.streams.removeValue(forKey: stream) }
                return state.streams[stream]
            }
            continuation?.yield(event)
            if case .done = event { continuation?.finish() }
            return
        }
        guard let event = (try? DocumentEvent(fields)) ?? nil else { return }
        let sinks = withLock { state in
            if case .deleted = event.kind { state.session.watches.remove(event.document) }
            return state.eventSinks.values.filter { $0.document == nil || $0.document == event.document }
        }
        for sink in sinks { sink.continuation.yield(event) }
    }

    // MARK: Losing the connection

    private func transportEnded(_ generation: Int, _ end: Transport.End) {
        let error: LecternError
        switch end {
        case .endOfStream, .socketError: error = .connectionLost
        case .malformed(let malformed): error = malformed
        }
        let outcome = withLock { state -> (pending: [Pending], streams: [AsyncThrowingStream<TypewriterEvent, Error>.Continuation], reconnect: Bool, failure: LecternError)? in
            guard state.transport?.generation == generation else { return nil }
            state.transport = nil
            let failure = state.closing ? LecternError.closed : state.unsolicitedError ?? error
            state.unsolicitedError = nil
            let pending = Array(state.pending.values)
            state.pending = [:]
            let streams = Array(state.streams.values)
            state.streams = [:]
            return (pending, streams, !state.closing && reconnectPolicy != nil, failure)
        }
        guard let outcome else { return }
        for pending in outcome.pending {
            pending.deadline?.cancel()
            pending.continuation?.resume(throwing: outcome.failure)
        }
        for stream in outcome.streams { stream.finish(throwing: outcome.failure) }
        if outcome.reconnect, let policy = reconnectPolicy {
            emit(.lost(outcome.failure))
            startReconnecting(policy: policy)
        } else {
            finishForGood(outcome.failure)
        }
    }

    /// Ends everything for good: event sequences finish, later requests fail with `error`.
    func finishForGood(_ error: LecternError) {
        let sinks = withLock { state -> ([AsyncStream<DocumentEvent>.Continuation], [AsyncStream<ConnectionEvent>.Continuation])? in
            guard state.closedError == nil else { return nil }
            state.closedError = error
            let sinks = (state.eventSinks.values.map(\.continuation), Array(state.connectionSinks.values))
            state.eventSinks = [:]
            state.connectionSinks = [:]
            return sinks
        }
        guard let (events, connectionSinks) = sinks else { return }
        for sink in events { sink.finish() }
        for sink in connectionSinks {
            sink.yield(.closed(error))
            sink.finish()
        }
    }

    func emit(_ event: ConnectionEvent) {
        let sinks = withLock { Array($0.connectionSinks.values) }
        for sink in sinks { sink.yield(event) }
    }

    /// The connection's life as it happens: lost, reconnecting, reconnected,
    /// closed. The sequence ends after ``ConnectionEvent/closed(_:)``.
    public func connectionEvents() -> AsyncStream<ConnectionEvent> {
        let (events, continuation) = AsyncStream.makeStream(of: ConnectionEvent.self)
        let id = UUID()
        let closed = withLock { state -> LecternError? in
            if state.closedError == nil { state.connectionSinks[id] = continuation }
            return state.closedError
        }
        if let closed {
            continuation.yield(.closed(closed))
            continuation.finish()
        } else {
            continuation.onTermination = { [weak self] _ in
                self?.withLock { _ = $0.connectionSinks.removeValue(forKey: id) }
            }
        }
        return events
    }
}
