// Server.swift: the libuv loop, its listeners, and the connections on them.

import CUV
import LecternUV
import Glibc
import LecternProtocol
import LecternStore

/// The daemon: one libuv loop on one thread that owns all state.
///
/// Handles it owns: the listeners (TCP, and a Unix socket if asked for);
/// a check and a prepare handle that flush the output of every connection
/// that produced some (Redis's `beforeSleep` write pass): check runs right
/// after the poll phase, so replies to what was just read go out in the same
/// iteration; prepare runs right before the loop blocks, so output made by
/// timers (typewriter ticks) never waits for the next wake-up;
/// the run queue of connections with requests buffered beyond their
/// per-turn budget, served one budget each per loop turn by the check
/// handle before it flushes (an idle handle, active while the queue is not
/// empty, keeps the loop from blocking in poll meanwhile);
/// a once-a-second housekeeping timer (idle timeouts, the commands-per-second
/// figure); SIGINT/SIGTERM handles that start a clean shutdown. One read
/// buffer is shared by all connections: a read callback consumes it
/// completely before the next read starts.
///
/// ```swift
/// let server = try Server(configuration: config)
/// try server.run()   // returns after SIGINT/SIGTERM, loop closed
/// ```
///
/// Loop thread only (``run()`` makes the calling thread the loop thread).
public final class Server {
    public let configuration: ServerConfiguration
    /// The TCP address actually bound (the real port when 0 was asked for).
    public private(set) var boundAddress = ""

    /// The loop; a harness in this package (LecternServerHarness) runs it itself.
    package let loop: UnsafeMutablePointer<uv_loop_t>
    private var listeners: [Listener] = []
    private let flushCheck: UnsafeMutablePointer<uv_check_t>
    private let flushPrepare: UnsafeMutablePointer<uv_prepare_t>
    /// Active while ``runQueue`` is not empty: poll does not block.
    private let runIdle: UnsafeMutablePointer<uv_idle_t>
    private let housekeepingTimer: UnsafeMutablePointer<uv_timer_t>
    private var signalHandles: [UnsafeMutablePointer<uv_signal_t>] = []

    let commands: CommandTable
    private var connections: [UInt64: Connection] = [:]
    private var nextConnectionID: UInt64 = 1
    private var flushQueue: [Connection] = []
    /// The queue being flushed: swapped with ``flushQueue`` so that neither
    /// is copied or reallocated on each pass (a flush can queue more).
    private var flushing: [Connection] = []
    /// Connections with requests to run next turn (see ``scheduleRun(_:)``),
    /// and the queue being run, swapped like the flush queues.
    private var runQueue: [Connection] = []
    private var running: [Connection] = []
    /// Loop turns so far, counted at the end of each check pass: the
    /// per-connection request and output budgets are per turn.
    private(set) var turn: UInt64 = 1
    /// Bytes of events queued on all connections since start: what a
    /// request sent to others counts toward its connection's turn budget
    /// (see ``Connection``).
    var eventBytesQueued = 0
    private var isShuttingDown = false
    /// The documents.
    var documents = DocumentRegistry()
    /// Fonts, shaping and layout.
    let layouts: LayoutService
    /// The AUTH token, if one is required.
    let access: AccessControl
    /// The store, written before changes are acknowledged (nil with `--redis`).
    private(set) var persistence: DocumentPersistence!
    /// With `--redis`: Redis, where the documents are; ``documents`` is then a cache.
    var cluster: RedisDocuments?
    /// With `--redis`: what this node knows of the others.
    var clusterCache = ClusterCache()
    /// Counters for STATS. Counted on every request, so without the
    /// run-time exclusivity check (a thread-local look-up per access), which
    /// is safe because every access is on the loop thread and each modifying
    /// one is a single increment or a call that touches only the counters
    /// (``ServerStatistics`` calls out to nothing).
    @exclusivity(unchecked) var statistics: ServerStatistics
    /// The `--metrics-port` HTTP endpoint, when asked for.
    private(set) var metrics: MetricsServer?
    /// All typewriter streams, on one timer.
    private(set) var typewriters: TypewriterScheduler!
    /// Who watches, selects in and types which document.
    let readers = ReaderRegistry()

    private static let readBufferSize = 64 * 1024
    private let readBufferMemory: UnsafeMutablePointer<CChar>
    /// The one read buffer all connections read into.
    var sharedReadBuffer: uv_buf_t { uv_buf_init(readBufferMemory, UInt32(Server.readBufferSize)) }

    /// A start-up failure (address in use, bad address), with libuv's reason.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Creates the loop and binds the listeners; nothing runs until ``run()``.
    public init(configuration: ServerConfiguration, environment: [String: String] = [:]) throws {
        self.configuration = configuration
        self.access = try AccessControl(configuration: configuration, environment: environment)
        self.commands = CommandTable(Server.allCommands)
        self.statistics = ServerStatistics(commandCount: commands.commands.count)
        self.layouts = try LayoutService()
        readBufferMemory = .allocate(capacity: Server.readBufferSize)
        loop = .allocate(capacity: 1)
        uv_loop_init(loop)
        flushCheck = LoopHandle.allocate(uv_check_t.self)
        flushPrepare = LoopHandle.allocate(uv_prepare_t.self)
        runIdle = LoopHandle.allocate(uv_idle_t.self)
        housekeepingTimer = LoopHandle.allocate(uv_timer_t.self)
        uv_check_init(loop, flushCheck)
        LoopHandle.bind(flushCheck, to: self)
        uv_prepare_init(loop, flushPrepare)
        LoopHandle.bind(flushPrepare, to: self)
        uv_idle_init(loop, runIdle)
        LoopHandle.bind(runIdle, to: self)
        uv_timer_init(loop, housekeepingTimer)
        LoopHandle.bind(housekeepingTimer, to: self)
        statistics.startTime = uv_now(loop)
        typewriters = TypewriterScheduler(server: self)
        do {
            try openStore()
            let tcp = try Listener(kind: .tcp, host: configuration.host, port: configuration.port, server: self)
            listeners.append(tcp)
            boundAddress = tcp.address
            if let path = configuration.unixSocketPath {
                listeners.append(try Listener(kind: .unix(path: path), host: "", port: 0, server: self))
            }
            if let port = configuration.metricsPort {
                metrics = try MetricsServer(host: configuration.metricsHost, port: port, server: self)
            }
        } catch {
            // Give back what init made so nothing leaks on a failed start.
            closeAllHandles()
            uv_run(loop, UV_RUN_DEFAULT)
            uv_loop_close(loop)
            throw error
        }
    }

    /// Opens the store and restores every document in it.
    private func openStore() throws {
        let store: any DocumentStore
        if let address = configuration.redis {
            return try openRedis(address)
        }
        if configuration.inMemory {
            store = MemoryDocumentStore()
            persistence = DocumentPersistence(store: store, writesInline: true, server: self)
            Log.lifecycle("store", ["kind": "memory"])
            return
        }
        let sqlite: SQLiteDocumentStore
        do {
            sqlite = try SQLiteDocumentStore(directory: configuration.dataDirectory)
        } catch where error.code == .locked {
            // Two daemons on one directory would each serve their own copy
            // and overwrite each other's acknowledged writes.
            throw StartError(description: "\(error.message); stop it, or give this daemon another --data-dir (LOCKED)")
        } catch {
            throw StartError(description: "cannot open the store in \(configuration.dataDirectory): \(error.message) (\(error.code.rawValue))")
        }
        store = sqlite
        persistence = DocumentPersistence(store: store, writesInline: false, server: self)
        if let reason = sqlite.readOnlyReason {
            Log.warning("store_read_only", ["path": sqlite.databasePath, "reason": reason])
            if !sqlite.holdsDirectoryLock {
                Log.warning("store_unlocked", [
                    "path": configuration.dataDirectory,
                    "message": "the read-only data directory has no lectern.lock this daemon can open, so nothing stops another lecternd from using it too",
                ])
            }
        }
        let stored: [StoredDocument]
        do {
            stored = try store.loadAll()
        } catch {
            throw StartError(description: "cannot read the store \(sqlite.databasePath): \(error.message) (\(error.code.rawValue))")
        }
        for document in stored {
            guard let content = DocumentContent(stored: document.record) else {
                Log.error("store_document_unreadable", ["id": document.id])
                continue
            }
            documents.restore(Document(
                id: document.id, content: content, revision: document.wireRevision,
                attachments: document.record.attachments.map(\.inAttachRanges)))
        }
        Log.lifecycle("store", ["kind": "sqlite", "path": sqlite.databasePath, "documents": documents.count])
        if documents.count > configuration.maximumDocuments {
            Log.warning("documents_over_limit", [
                "documents": documents.count, "limit": configuration.maximumDocuments,
                "message": "the store holds \(documents.count) documents, more than --max-documents \(configuration.maximumDocuments): all are served and can be replaced, but a new one gets ERR TOOMANY until DEL brings the count under the limit",
            ])
        }
    }

    deinit {
        readBufferMemory.deallocate()
        loop.deallocate()
    }

    /// Starts the handles (signals, output passes, timers) and logs where
    /// the daemon listens; ``run()`` then runs the loop. Separate so that a
    /// harness can drive the loop itself (LecternServerHarness's `Fuzzing`).
    package func start() {
        // libuv writes with write/writev, without MSG_NOSIGNAL: a peer that
        // went away must give EPIPE, not kill the daemon.
        signal(SIGPIPE, SIG_IGN)
        // A parent may have started us with these blocked (some process
        // spawners do); blocked, they would never reach the loop.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        raiseOpenFileLimit()
        for number in [SIGINT, SIGTERM] {
            let handle = LoopHandle.allocate(uv_signal_t.self)
            uv_signal_init(loop, handle)
            LoopHandle.bind(handle, to: self)
            uv_signal_start(handle, { handle, number in
                LoopHandle.owner(of: handle, as: Server.self)?.shutdown(signal: number)
            }, number)
            signalHandles.append(handle)
        }
        uv_check_start(flushCheck) { handle in
            LoopHandle.owner(of: handle, as: Server.self)?.endTurn()
        }
        uv_prepare_start(flushPrepare) { handle in
            LoopHandle.owner(of: handle, as: Server.self)?.flushPendingOutput()
        }
        uv_timer_start(housekeepingTimer, { handle in
            LoopHandle.owner(of: handle, as: Server.self)?.housekeeping()
        }, 1000, 1000)
        for listener in listeners {
            Log.lifecycle("listening", ["addr": listener.address, "pid": getpid(), "auth": access.isRequired ? "token" : "none"])
        }
        if let metrics { Log.lifecycle("metrics_listening", ["addr": metrics.address, "path": "/metrics"]) }
        if !access.isRequired && !SocketAddress.isLoopback(host: configuration.host) {
            Log.warning("UNPROTECTED", [
                "message": "listening on \(configuration.host), reachable from other machines, WITHOUT a token: anyone who can connect can read and change every document. Set --auth-token-file or LECTERN_AUTH_TOKEN, or bind 127.0.0.1",
            ])
        }
    }

    /// Every connection is a file descriptor: raise the soft limit on open
    /// files (often 1024) toward what `--max-connections` needs, as Redis
    /// does, and say so if the hard limit does not allow it.
    private func raiseOpenFileLimit() {
        let needed = rlim_t(configuration.maximumConnections + 128)
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < needed else { return }
        let wanted = min(needed, limit.rlim_max)
        var raised = limit
        raised.rlim_cur = wanted
        if wanted > limit.rlim_cur, setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 {
            limit = raised
        }
        if limit.rlim_cur < needed {
            Log.warning("open_file_limit", [
                "limit": limit.rlim_cur, "needed": needed,
                "message": "fewer open files allowed than --max-connections needs; connections past the limit will be refused by the system (raise ulimit -n)",
            ])
        }
    }

    /// Runs the loop until shutdown, then closes it.
    public func run() throws {
        start()
        uv_run(loop, UV_RUN_DEFAULT)
        let status = uv_loop_close(loop)
        if status != 0 {
            Log.error("loop_close_failed", ["error": LoopHandle.errorName(status)])
        }
        Log.lifecycle("stopped")
    }

    /// Closes the listeners and every connection; the loop then runs out of
    /// handles and ``run()`` returns.
    func shutdown(signal number: Int32) {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        let name = number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : String(number)
        Log.lifecycle("shutting_down", ["signal": name, "connections": connections.count])
        for connection in Array(connections.values) { connection.close(reason: nil) }
        closeAllHandles()
    }

    private func closeAllHandles() {
        // First: its HTTP thread stops before the loop's handles go.
        metrics?.close()
        cluster?.close()
        for listener in listeners { listener.close() }
        listeners.removeAll()
        for handle in signalHandles { LoopHandle.close(handle) }
        signalHandles.removeAll()
        LoopHandle.close(flushCheck)
        LoopHandle.close(flushPrepare)
        LoopHandle.close(runIdle)
        LoopHandle.close(housekeepingTimer)
        typewriters.close()
    }

    // MARK: Connections

    func acceptConnection(from listener: Listener, status: Int32) {
        guard status == 0 else {
            Log.error("accept_failed", ["error": LoopHandle.errorName(status)])
            return
        }
        let stream = listener.makeClientStream()
        let accepted = uv_accept(listener.stream, stream)
        let connection = Connection(id: nextConnectionID, server: self, stream: stream, isTCP: listener.isTCP)
        nextConnectionID += 1
        guard accepted == 0 else {
            connection.close(reason: "accept failed: \(LoopHandle.errorName(accepted))")
            return
        }
        statistics.connectionsAccepted += 1
        connections[connection.id] = connection
        if connections.count > configuration.maximumConnections {
            statistics.connectionsRefused += 1
            Log.warning("connection_refused", ["peer": connection.peer, "limit": configuration.maximumConnections])
            connection.fail(ProtocolError(.maxClients, "the daemon serves at most \(configuration.maximumConnections) connections (--max-connections); try again later"), tag: nil)
            return
        }
        connection.session.isAuthenticated = !access.isRequired
        if access.isRequired
            && !access.admitUnauthenticated(connection.id, limit: configuration.maximumUnauthenticatedConnections, now: uv_now(loop))
        {
            statistics.connectionsRefused += 1
            Log.warning("connection_refused", ["peer": connection.peer, "unauthenticated_limit": configuration.maximumUnauthenticatedConnections])
            connection.fail(ProtocolError(.maxClients, "the daemon holds at most \(configuration.maximumUnauthenticatedConnections) connections that have not authenticated (--max-unauthenticated); try again later"), tag: nil)
            return
        }
        Log.info("connection_opened", ["id": connection.id, "peer": connection.peer])
        connection.startReading()
    }

    /// Serves an already connected socket (one end of a socketpair) as a
    /// connection, as if it had been accepted.
    func adopt(fileDescriptor: Int32) -> Connection? {
        let pipe = LoopHandle.allocate(uv_pipe_t.self)
        uv_pipe_init(loop, pipe, 0)
        let stream = LoopHandle.stream(pipe)
        let connection = Connection(id: nextConnectionID, server: self, stream: stream, isTCP: false)
        nextConnectionID += 1
        guard uv_pipe_open(pipe, fileDescriptor) == 0 else {
            connection.close(reason: "cannot adopt descriptor \(fileDescriptor)")
            return nil
        }
        connections[connection.id] = connection
        connection.session.isAuthenticated = !access.isRequired
        connection.startReading()
        return connection
    }

    /// A connection from this process: one end of a Unix socketpair,
    /// adopted as a client; returns the other end (non-blocking) for the
    /// caller to write requests to and read replies from, or nil.
    package func connectInProcess() -> Int32? {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { return nil }
        let client = ends[1]
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        guard adopt(fileDescriptor: ends[0]) != nil else {
            close(client)
            return nil
        }
        return client
    }

    func connectionDidClose(_ connection: Connection) {
        connections[connection.id] = nil
        access.stopCounting(connection.id)
        readers.connectionDidClose(connection)
    }

    /// The open connections, in no particular order.
    var openConnections: Dictionary<UInt64, Connection>.Values { connections.values }

    /// Once a second: the commands-per-second figure, idle timeouts, and
    /// connections that did not authenticate in time.
    private func housekeeping() {
        statistics.closeSecond()
        let now = uv_now(loop)
        closeUnauthenticated(now: now)
        announceUnwatched()
        let timeout = UInt64(configuration.idleTimeoutSeconds) * 1000
        guard timeout > 0 else { return }
        for connection in Array(connections.values)
        where readers.isIdleTimeoutExempt(connection) == false && now &- connection.lastActivity >= timeout {
            let reason = "idle for \(configuration.idleTimeoutSeconds) s (--idle-timeout)"
            Log.info("connection_idle", ["id": connection.id, "peer": connection.peer, "reason": reason])
            connection.close(saying: ProtocolError(.idle, "closing: no request for \(configuration.idleTimeoutSeconds) s (--idle-timeout); reconnect when needed"), tag: nil)
        }
    }

    /// Closes connections that have not authenticated `--auth-timeout`
    /// seconds after they were accepted: the slots of `--max-unauthenticated`
    /// cannot be held by clients that never send a token (ssh's LoginGraceTime).
    private func closeUnauthenticated(now: UInt64) {
        let seconds = configuration.authTimeoutSeconds
        guard access.isRequired, seconds > 0 else { return }
        for id in access.unauthenticated(since: UInt64(seconds) * 1000, now: now) {
            guard let connection = connections[id] else {
                access.stopCounting(id)
                continue
            }
            Log.info("connection_auth_timeout", ["id": id, "peer": connection.peer, "reason": "no AUTH within \(seconds) s (--auth-timeout)"])
            // Counted no longer from now on, so it is closed once.
            access.stopCounting(id)
            connection.close(saying: ProtocolError(.authenticationRequired, "closing: no AUTH within \(seconds) s of connecting (--auth-timeout)"), tag: nil)
        }
    }

    // MARK: Output

    /// Queues `connection` for the once-per-iteration output pass.
    func scheduleFlush(_ connection: Connection) {
        guard !connection.isQueuedForFlush else { return }
        connection.isQueuedForFlush = true
        flushQueue.append(connection)
    }

    /// Queues `connection` to run its buffered requests in the next run
    /// pass: it spent this turn's budget, or its output drained after
    /// back-pressure. Each connection is queued at most once.
    func scheduleRun(_ connection: Connection) {
        guard !connection.isQueuedToRun, !connection.isClosing else { return }
        connection.isQueuedToRun = true
        if runQueue.isEmpty && !isShuttingDown {
            // The callback does nothing: an active idle handle only makes
            // poll return at once, so that the check pass comes round.
            uv_idle_start(runIdle) { _ in }
        }
        runQueue.append(connection)
    }

    /// The check pass, right after poll: the connections waiting in the run
    /// queue get one turn's budget each, in the order they were queued (a
    /// connection that yields again goes to the back), then everything made
    /// is flushed and the turn ends.
    private func endTurn() {
        if !runQueue.isEmpty {
            swap(&running, &runQueue)
            for connection in running {
                connection.isQueuedToRun = false
                connection.takeTurn()
            }
            running.removeAll(keepingCapacity: true)
            if runQueue.isEmpty { uv_idle_stop(runIdle) }
        }
        flushPendingOutput()
        turn &+= 1
    }

    private func flushPendingOutput() {
        guard !flushQueue.isEmpty else { return }
        swap(&flushing, &flushQueue)
        for connection in flushing {
            connection.isQueuedForFlush = false
            connection.flush()
        }
        flushing.removeAll(keepingCapacity: true)
    }
}

@available(*, unavailable)
extension Server: Sendable {}
