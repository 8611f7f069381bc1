// ClientConnection.swift: one TCP connection of the load tool on libuv.

import CUV
import LecternUV
import Glibc

/// What a connection reports to whoever runs it (the ``LoadRunner``).
protocol ConnectionOwner: AnyObject {
    /// The loop's one read buffer (the loop thread reads one socket at a time).
    var readBuffer: uv_buf_t { get }
    func connectionDidConnect(_ connection: ClientConnection, status: Int32)
    /// A reply, read in place: `reply` is valid only during the call.
    func connection(_ connection: ClientConnection, didReceive reply: ReplyView, for request: PendingRequest, at now: UInt64)
    /// An event line, read in place: `line` is valid only during the call.
    func connection(_ connection: ClientConnection, didReceiveEvent line: UnsafeRawBufferPointer, at now: UInt64)
    func connectionNeedsFlush(_ connection: ClientConnection)
    func connection(_ connection: ClientConnection, didClose reason: ClientConnection.CloseReason)
}

/// A client connection: dials the server, sends request lines, reassembles
/// replies with a ``ReplyFramer`` and pairs each with its ``PendingRequest``.
/// Replies are read where they lie in the loop's read buffer; only the
/// bytes of a reply cut off by the end of a read are copied.
///
/// Output is buffered and written once per loop iteration (the owner calls
/// ``flush()`` from a check handle): `uv_try_write` first, then `uv_write`
/// of a copy for what the kernel did not take, as lecternd does. The TCP
/// handle follows the ``LoopHandle`` ownership pattern.
///
/// Loop thread only.
final class ClientConnection {
    enum State { case idle, connecting, open, closed }

    enum CloseReason: Equatable {
        /// The run is over.
        case finished
        /// The server closed the connection or the socket failed.
        case disconnected(String)
        /// A reply did not come in time; the stream is out of step.
        case timedOut
        /// The server sent something that is not the protocol.
        case malformed(String)
    }

    let index: Int
    /// The runner owns its connections and outlives them (it closes them
    /// all before its loop ends), so no reference counting on the hot path.
    private unowned(unsafe) let owner: ConnectionOwner
    private let tcp: UnsafeMutablePointer<uv_tcp_t>
    private var framer: ReplyFramer
    private(set) var state = State.idle
    private(set) var pending = RequestQueue()
    private var output: [UInt8] = []
    private var bytesInFlight = 0
    /// Whether the owner has this connection in its flush list.
    var isQueuedForFlush = false
    /// Load requests sent on this connection (for round-robin fairness checks).
    private(set) var loadRequestsSent = 0

    init(index: Int, owner: ConnectionOwner, loop: UnsafeMutablePointer<uv_loop_t>, framing: ReplyFramer.Framing) {
        self.index = index
        self.owner = owner
        framer = ReplyFramer(framing: framing)
        tcp = LoopHandle.allocate(uv_tcp_t.self)
        uv_tcp_init(loop, tcp)
        LoopHandle.bind(tcp, to: self)
    }

    // MARK: Connecting and reading

    func connect(to address: ServerAddress) {
        state = .connecting
        let request = LoopHandle.allocate(uv_connect_t.self)
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let status = address.withSocketAddress { address in
            uv_tcp_connect(request, tcp, address) { request, status in
                guard let request else { return }
                let data = request.pointee.data
                free(request)
                guard let data else { return }
                let connection = Unmanaged<ClientConnection>.fromOpaque(data).takeRetainedValue()
                connection.didConnect(status: status)
            }
        }
        if status != 0 {
            Unmanaged<ClientConnection>.fromOpaque(request.pointee.data).release()
            free(request)
            didConnect(status: status)
        }
    }

    private func didConnect(status: Int32) {
        guard state == .connecting else { return }
        if status == 0 {
            state = .open
            uv_tcp_nodelay(tcp, 1)
            startReading()
        }
        owner.connectionDidConnect(self, status: status)
    }

    private func startReading() {
        let status = uv_read_start(
            LoopHandle.stream(tcp),
            { handle, _, buffer in
                guard let buffer, let connection = LoopHandle.owner(of: handle, as: ClientConnection.self) else { return }
                buffer.pointee = connection.owner.readBuffer
            },
            { stream, count, buffer in
                guard let connection = LoopHandle.owner(of: stream, as: ClientConnection.self) else { return }
                connection.didRead(count: count, buffer: buffer)
            })
        if status != 0 { close(.disconnected("read start: \(LoopHandle.errorName(status))")) }
    }

    private func didRead(count: Int, buffer: UnsafePointer<uv_buf_t>?) {
        guard state == .open else { return }
        if count < 0 {
            close(.disconnected(count == Int(UV_EOF.rawValue) ? "closed by the server" : LoopHandle.errorName(Int32(count))))
            return
        }
        guard count > 0, let base = buffer?.pointee.base else { return }
        let now = MonotonicClock.now()
        do {
            try framer.frames(in: UnsafeRawBufferPointer(start: base, count: count)) { frame in
                switch frame {
                case .event(let line):
                    owner.connection(self, didReceiveEvent: line, at: now)
                case .reply(let reply):
                    guard let request = pending.popFirst() else {
                        close(.malformed("a reply with no request outstanding"))
                        return false
                    }
                    owner.connection(self, didReceive: reply, for: request, at: now)
                }
                return state == .open
            }
        } catch {
            close(.malformed("\(error)"))
        }
    }

    // MARK: Writing

    /// Queues a request; it is written at the end of this loop iteration.
    func send(_ bytes: ArraySlice<UInt8>, _ request: PendingRequest) {
        guard state == .open else { return }
        output.append(contentsOf: bytes)
        pending.append(request)
        if request.purpose == .load { loadRequestsSent += 1 }
        if !isQueuedForFlush { owner.connectionNeedsFlush(self) }
    }

    /// Writes buffered output.
    func flush() {
        guard state == .open, !output.isEmpty else { return }
        var written = 0
        if bytesInFlight == 0 {
            written = output.withUnsafeMutableBytes { bytes -> Int in
                var buffer = uv_buf_init(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
                return Int(uv_try_write(LoopHandle.stream(tcp), &buffer, 1))
            }
            if written < 0 && written != Int(UV_EAGAIN.rawValue) {
                close(.disconnected("write: \(LoopHandle.errorName(Int32(written)))"))
                return
            }
            written = max(written, 0)
        }
        if written < output.count {
            let rest = output[written...]
            let status = QueuedWrite.start(rest, on: LoopHandle.stream(tcp), owner: self)
            if status != 0 {
                close(.disconnected("write: \(LoopHandle.errorName(status))"))
                return
            }
            bytesInFlight += rest.count
        }
        output.removeAll(keepingCapacity: true)
    }

    func didWrite(count: Int, status: Int32) {
        bytesInFlight -= count
        if status != 0 && state == .open { close(.disconnected("write: \(LoopHandle.errorName(status))")) }
    }

    // MARK: Closing

    /// Closes the connection, once; requests still pending are dropped
    /// (the owner counts them from ``pending`` in its close callback).
    func close(_ reason: CloseReason) {
        guard state != .closed else { return }
        let wasStarted = state != .idle
        state = .closed
        if wasStarted { owner.connection(self, didClose: reason) }
        LoopHandle.close(tcp)
    }
}
