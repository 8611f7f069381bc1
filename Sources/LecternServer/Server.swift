// Server.swift: the libuv loop, the listener, and the connections on it.

import CUV
import Glibc
import LecternProtocol

/// The daemon: one libuv loop on one thread that owns all state.
///
/// Handles it owns: the TCP listener, one check handle that flushes the
/// output of every connection that produced some in this loop iteration
/// (Redis's `beforeSleep` write pass), and SIGINT/SIGTERM handles that start
/// a clean shutdown. One read buffer is shared by all connections: a read
/// callback consumes it completely before the next read starts.
///
/// ```swift
/// let server = try Server(configuration: config)
/// try server.run()   // returns after SIGINT/SIGTERM, loop closed
/// ```
///
/// Loop thread only (``run()`` makes the calling thread the loop thread).
public final class Server {
    public let configuration: ServerConfiguration
    /// The address actually bound (the real port when 0 was asked for).
    public private(set) var boundAddress = ""

    let loop: UnsafeMutablePointer<uv_loop_t>
    private let listener: UnsafeMutablePointer<uv_tcp_t>
    private let flushCheck: UnsafeMutablePointer<uv_check_t>
    private var signalHandles: [UnsafeMutablePointer<uv_signal_t>] = []

    private(set) var commands: CommandTable
    private var connections: [UInt64: Connection] = [:]
    private var nextConnectionID: UInt64 = 1
    private var flushQueue: [Connection] = []
    private var isShuttingDown = false

    private static let readBufferSize = 64 * 1024
    private let readBufferMemory: UnsafeMutablePointer<CChar>
    /// The one read buffer all connections read into.
    var sharedReadBuffer: uv_buf_t { uv_buf_init(readBufferMemory, UInt32(Server.readBufferSize)) }

    /// A start-up failure (address in use, bad address), with libuv's reason.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Creates the loop and binds the listener; nothing runs until ``run()``.
    public init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        self.commands = CommandTable(Server.sessionCommands)
        readBufferMemory = .allocate(capacity: Server.readBufferSize)
        loop = .allocate(capacity: 1)
        uv_loop_init(loop)
        listener = LoopHandle.allocate(uv_tcp_t.self)
        flushCheck = LoopHandle.allocate(uv_check_t.self)

        uv_tcp_init(loop, listener)
        LoopHandle.bind(listener, to: self)
        uv_check_init(loop, flushCheck)
        LoopHandle.bind(flushCheck, to: self)
        do {
            try listen()
        } catch {
            // Give back what init made so nothing leaks on a failed start.
            LoopHandle.close(listener)
            LoopHandle.close(flushCheck)
            uv_run(loop, UV_RUN_DEFAULT)
            uv_loop_close(loop)
            loop.deallocate()
            readBufferMemory.deallocate()
            throw error
        }
    }

    deinit {
        readBufferMemory.deallocate()
        loop.deallocate()
    }

    private func listen() throws {
        guard let address = SocketAddress.make(host: configuration.host, port: configuration.port) else {
            throw StartError(description: "'\(configuration.host)' is not an IPv4 or IPv6 address")
        }
        var storage = address
        var status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_bind(listener, $0, 0) }
        }
        if status == 0 {
            status = uv_listen(LoopHandle.stream(listener), 511) { stream, status in
                guard let server = LoopHandle.owner(of: stream, as: Server.self) else { return }
                server.acceptConnection(status: status)
            }
        }
        guard status == 0 else {
            throw StartError(description: "cannot listen on \(configuration.host):\(configuration.port): \(String(cString: uv_strerror(status)))")
        }
        var bound = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_getsockname(listener, $0, &length) }
        }
        boundAddress = SocketAddress.describe(bound)
    }

    /// Runs the loop until shutdown, then closes it.
    public func run() throws {
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
            LoopHandle.owner(of: handle, as: Server.self)?.flushPendingOutput()
        }
        Log.info("listening", ["addr": boundAddress, "pid": getpid()])
        uv_run(loop, UV_RUN_DEFAULT)
        let status = uv_loop_close(loop)
        if status != 0 {
            Log.error("loop_close_failed", ["error": LoopHandle.errorName(status)])
        }
        Log.info("stopped")
    }

    /// Closes the listener and every connection; the loop then runs out of
    /// handles and ``run()`` returns.
    func shutdown(signal number: Int32) {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        Log.info("shutting_down", ["signal": number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : String(number), "connections": connections.count])
        LoopHandle.close(listener)
        for connection in Array(connections.values) { connection.close(reason: nil) }
        for handle in signalHandles { LoopHandle.close(handle) }
        signalHandles.removeAll()
        LoopHandle.close(flushCheck)
    }

    // MARK: Connections

    private func acceptConnection(status: Int32) {
        guard status == 0 else {
            Log.error("accept_failed", ["error": LoopHandle.errorName(status)])
            return
        }
        let tcp = LoopHandle.allocate(uv_tcp_t.self)
        uv_tcp_init(loop, tcp)
        let accepted = uv_accept(LoopHandle.stream(listener), LoopHandle.stream(tcp))
        let connection = Connection(id: nextConnectionID, server: self, tcp: tcp)
        nextConnectionID += 1
        guard accepted == 0 else {
            connection.close(reason: "accept failed: \(LoopHandle.errorName(accepted))")
            return
        }
        uv_tcp_nodelay(tcp, 1)
        connections[connection.id] = connection
        if connections.count > configuration.maximumConnections {
            Log.warning("connection_refused", ["peer": connection.peer, "limit": configuration.maximumConnections])
            connection.fail(ProtocolError(.maxClients, "the daemon serves at most \(configuration.maximumConnections) connections (--max-connections); try again later"), tag: nil)
            return
        }
        Log.info("connection_opened", ["id": connection.id, "peer": connection.peer])
        connection.startReading()
    }

    func connectionDidClose(_ connection: Connection) {
        connections[connection.id] = nil
    }

    /// Number of open connections.
    var connectionCount: Int { connections.count }

    // MARK: Output

    /// Queues `connection` for the once-per-iteration output pass.
    func scheduleFlush(_ connection: Connection) {
        guard !connection.isQueuedForFlush else { return }
        connection.isQueuedForFlush = true
        flushQueue.append(connection)
    }

    private func flushPendingOutput() {
        // Flushing can queue nothing new, but swap first to be safe.
        let queue = flushQueue
        flushQueue.removeAll(keepingCapacity: true)
        for connection in queue {
            connection.isQueuedForFlush = false
            connection.flush()
        }
    }

    // MARK: Requests

    /// Parses one request line and runs its command.
    func handle(line: ArraySlice<UInt8>, on connection: Connection) {
        let request: Request
        do {
            guard let parsed = try RequestParser.parse(line) else { return }
            request = parsed
        } catch let error as ProtocolError {
            let tag = RequestParser.tag(of: line)
            if error.code == .binary {
                connection.fail(error, tag: tag)
            } else {
                connection.reply(error, tag: tag)
            }
            return
        } catch {
            return
        }
        do {
            let (command, arguments) = try commands.resolve(request)
            let context = CommandContext(request: request, connection: connection, server: self, arguments: arguments)
            connection.reply(try command.handler(context), tag: request.tag)
        } catch let error as ProtocolError {
            connection.reply(error, tag: request.tag)
        } catch {
            connection.reply(ProtocolError(.arguments, "\(error)"), tag: request.tag)
        }
    }
}

@available(*, unavailable)
extension Server: Sendable {}
