// Connection.swift: one client: its socket, its request decoder, its output.

import CUV
import LecternUV
import Glibc
import LecternProtocol

/// One client connection.
///
/// Owns its stream handle, TCP or Unix socket (see ``LoopHandle``), a ``LineDecoder`` fed from the
/// server's one shared read buffer, and an output buffer that replies are
/// appended to. Output is not written when a reply is made but once per loop
/// iteration, by the server's check handle (``flush()``): a client that
/// pipelines a hundred requests gets one `write`, not a hundred.
///
/// Writing tries `uv_try_write` first; what the kernel does not take is
/// copied into a ``PendingWrite`` and queued with `uv_write`. Output waiting
/// (buffered plus queued) past the hard limit closes the connection with a
/// logged reason, so a client that never reads cannot grow the daemon.
///
/// Fairness: a connection runs at most `--turn-requests` requests and
/// produces at most `--turn-output-bytes` of replies per loop turn; with
/// more requests buffered it stops reading and waits in the server's run
/// queue for the next turn (``takeTurn()``), so one pipelining client
/// cannot hold the loop. Back-pressure: while more than
/// `--output-soft-limit` bytes of its output wait for the client to read
/// them (queued writes the kernel has not taken), it is neither read nor
/// are its buffered requests run; writes completing below the limit
/// resume it. Requests and replies keep their order through both.
///
/// Loop thread only.
final class Connection {
    let id: UInt64
    let peer: String
    /// The server outlives every connection (it closes them all before it
    /// goes), so the connection does not keep it alive; were that ever
    /// broken, an access would trap, not read freed memory.
    unowned let server: Server
    /// `--output-hard-limit` (the configuration is immutable): checked on
    /// every reply without reaching the server.
    private let outputHardLimit: Int
    let stream: UnsafeMutablePointer<uv_stream_t>

    // The decoder and the output are modified in place for every request.
    // Invariant that makes skipping the run-time exclusivity check safe:
    // both are private to this class (the output is read-only outside),
    // used on the loop thread only, and every modifying access is one call
    // that touches nothing but its arguments: the decoder yields a request
    // and is idle while its handler runs; the output is appended to, handed
    // `inout` to a ReplyWriter call, or written by flush(). The one call
    // that runs outside code while it holds the output is the `status`
    // closure of reply(data:tag:status:), which writes to its ShortLine
    // only (never to this connection). The check costs a thread-local
    // lookup per access on the hottest path.
    @exclusivity(unchecked) private var decoder: RequestDecoder
    /// Per-connection protocol state: offset unit, client name, views.
    let session = Session()
    /// A command's reply is being computed off the loop thread; later
    /// requests wait (replies keep request order) and reading pauses.
    private(set) var isAwaitingReply = false
    /// With `--redis`: writes of the current request that found a document
    /// changed by another node and were run again (``Server/conflictRetries``).
    var writeConflicts = 0
    /// The command (table index) and start (`uv_hrtime`) of the request
    /// whose reply is awaited, for STATS: it is counted, with its whole
    /// time, when the reply goes out.
    var deferredRequest: (command: Int, started: UInt64)?
    /// How the request being answered was framed: its reply is framed the same way.
    private(set) var replyFraming = Request.Framing.line
    /// The writer of the reply being made: the line protocol, or RESP of
    /// the session's version (read when the reply is written: HELLO 3's
    /// own reply is RESP3).
    var replyWriter: ReplyWriter { ReplyWriter(resp: replyFraming == .resp, respVersion: session.respVersion) }
    /// The writer of events: RESP once the client has sent RESP requests.
    var eventWriter: ReplyWriter { ReplyWriter(resp: session.speaksRESP, respVersion: session.respVersion) }
    /// Loop time (ms) of the last request, for the idle timeout.
    var lastActivity: UInt64 = 0
    @exclusivity(unchecked) private(set) var output: [UInt8] = []
    /// Bytes handed to `uv_write` whose callback has not come yet.
    private(set) var bytesInFlight = 0
    /// Output the kernel did not take, waiting to be handed to libuv one
    /// chunk at a time, in order (slices share the arrays they came from:
    /// queueing them copies nothing).
    private var queuedOutput: [ArraySlice<UInt8>] = []
    /// Bytes in ``queuedOutput``.
    private var queuedBytes = 0
    /// The most bytes copied into one `uv_write` (``PendingWrite`` copies
    /// them): a 50 MB reply that the kernel does not take at once costs the
    /// loop one chunk's copy per write completion, never 50 MB at once.
    static let maximumWriteChunk = 256 * 1024
    private(set) var isClosing = false
    /// Set by QUIT, end of input, or a fatal protocol error: no more
    /// requests are read; the connection closes once its output is written.
    private(set) var closesAfterOutput = false
    /// Whether the server has this connection in its flush list.
    var isQueuedForFlush = false
    /// Whether the server has this connection in its run queue (requests
    /// buffered beyond this turn's budget, or resuming after back-pressure).
    var isQueuedToRun = false
    /// Whether libuv is reading the socket (`uv_read_start` without a stop since).
    private var isReading = false
    /// Not read, requests not run: the client is not reading its output
    /// (queued writes over the soft limit). Cleared as writes complete.
    private(set) var isPausedForOutput = false
    /// The loop turn (``Server/turn``) that the two counts below are of.
    private var budgetTurn: UInt64 = 0
    /// Requests run and reply bytes produced in ``budgetTurn``.
    private var requestsThisTurn = 0
    private var outputBytesThisTurn = 0

    /// Output waiting to reach the kernel.
    var pendingOutputBytes: Int { output.count + queuedBytes + bytesInFlight }

    init(id: UInt64, server: Server, stream: UnsafeMutablePointer<uv_stream_t>, isTCP: Bool) {
        self.id = id
        self.server = server
        self.outputHardLimit = server.configuration.outputHardLimit
        self.stream = stream
        self.decoder = RequestDecoder(
            maximumLineLength: server.configuration.maximumLineLength,
            maximumPayloadLength: server.configuration.maximumPayloadLength,
            // Until AUTH, only small requests (see didAuthenticate()).
            limits: server.access.isRequired ? .unauthenticated : .full)
        decoder.yieldsPlainLines = true
        self.lastActivity = uv_now(server.loop)
        self.peer = isTCP ? Connection.peerName(stream) : "unix"
        LoopHandle.bind(stream, to: self)
        if isTCP {
            // Replies are small and latency matters more than packet count.
            uv_tcp_nodelay(UnsafeMutableRawPointer(stream).assumingMemoryBound(to: uv_tcp_t.self), 1)
        }
    }

    // MARK: Reading

    func startReading() {
        guard !isReading else { return }
        isReading = true
        let status = uv_read_start(
            stream,
            { handle, _, buffer in
                guard let handle, let buffer,
                    let server = LoopHandle.owner(of: handle, as: Connection.self)?.server
                else { return }
                buffer.pointee = server.sharedReadBuffer
            },
            { stream, count, buffer in
                guard let connection = LoopHandle.owner(of: stream, as: Connection.self) else { return }
                connection.didRead(count: count, buffer: buffer)
            })
        if status != 0 {
            isReading = false
            close(reason: "read start failed: \(LoopHandle.errorName(status))")
        }
    }

    private func stopReading() {
        guard isReading else { return }
        isReading = false
        uv_read_stop(stream)
    }

    private func didRead(count: Int, buffer: UnsafePointer<uv_buf_t>?) {
        if count < 0 {
            if count == Int(UV_EOF.rawValue) {
                Log.debug("connection_eof", ["id": id])
                finishAfterOutput()
            } else {
                close(reason: "read error \(LoopHandle.errorName(Int32(count)))")
            }
            return
        }
        // count == 0 is "nothing now" (EAGAIN), not the end of the stream.
        guard count > 0, let base = buffer?.pointee.base, !closesAfterOutput else { return }
        server.statistics.bytesReceived &+= count
        decoder.append(UnsafeRawBufferPointer(start: base, count: count))
        processBufferedRequests()
    }

    /// Runs buffered requests in order until none is complete (then reads
    /// on), one waits for work off the loop, the connection closes, its
    /// client is not reading its output (back-pressure: it waits for its
    /// writes), or this turn's budget is spent (it waits in the server's
    /// run queue for the next turn, unread, so its decoder's buffer stays
    /// at one read).
    ///
    /// - Complexity: at most `--turn-requests` requests per loop turn.
    private func processBufferedRequests() {
        let server = self.server
        // The loop's time, cached by libuv for the whole callback.
        let (now, turn) = (uv_now(server.loop), server.turn)
        let (requestBudget, outputBudget) = (server.configuration.requestsPerTurn, server.configuration.outputBytesPerTurn)
        server.statistics.startBurst()
        if budgetTurn != turn {
            budgetTurn = turn
            requestsThisTurn = 0
            outputBytesThisTurn = 0
        }
        while !closesAfterOutput && !isClosing && !isAwaitingReply {
            if isPausedForOutput {
                stopReading()
                return
            }
            if requestsThisTurn >= requestBudget || outputBytesThisTurn >= outputBudget {
                // A request may be buffered: leave it for the next turn
                // (an incomplete one costs that turn nothing but a look).
                guard decoder.bufferedByteCount > 0 else { break }
                yieldTurn()
                return
            }
            guard let item = decoder.next() else { break }
            lastActivity = now
            replyFraming = decoder.lastFraming
            if replyFraming == .resp { session.speaksRESP = true }
            let outputBefore = output.count
            let eventBytesBefore = server.eventBytesQueued
            // Consumed: the request's bytes pass to its handler without another reference count.
            switch consume item {
            case .plain(let line):
                server.dispatch(line, on: self)
            case .request(let request):
                server.dispatch(request, on: self)
            case .failure(let error, let tag, let closesConnection):
                if closesConnection {
                    fail(error, tag: tag)
                } else {
                    reply(error, tag: tag)
                }
            }
            requestsThisTurn += 1
            // A request's share is its reply and the events it sent to
            // others (a TAP fans out to every watcher): forty watchers make
            // a TAP forty times the work, and its turn ends that much sooner.
            let eventBytes = server.eventBytesQueued &- eventBytesBefore
            outputBytesThisTurn += max(0, output.count - outputBefore) + eventBytes
        }
        // Nothing complete is buffered: read on, unless reading must wait.
        if !closesAfterOutput && !isClosing && !isAwaitingReply && !isPausedForOutput { startReading() }
    }

    /// This turn's budget is spent with requests still buffered: stop
    /// reading and wait for the next turn in the server's run queue.
    private func yieldTurn() {
        stopReading()
        server.statistics.turnYields += 1
        server.scheduleRun(self)
    }

    /// Runs this connection's buffered requests for one loop turn; called
    /// by the server's run pass for connections in its run queue.
    func takeTurn() {
        guard !isClosing else { return }
        let (turn, requestBudget, outputBudget) = (
            server.turn, server.configuration.requestsPerTurn, server.configuration.outputBytesPerTurn)
        if budgetTurn == turn && (requestsThisTurn >= requestBudget || outputBytesThisTurn >= outputBudget) {
            // It had this turn's share already (read and yielded in this
            // turn's poll phase): the next turn.
            server.scheduleRun(self)
            return
        }
        processBufferedRequests()
    }

    /// AUTH succeeded: every command is allowed, and requests may be as
    /// large as the configured limits from the next one on (bytes already
    /// received but not yet decoded included).
    func didAuthenticate() {
        session.isAuthenticated = true
        decoder.limits = .full
    }

    /// Marks the current request's reply as coming later (from work off the
    /// loop thread); ``completeDeferredReply(_:tag:)`` delivers it.
    func deferReply() {
        isAwaitingReply = true
        stopReading()
    }

    /// Runs a deferred request again (its layout is now ready), then
    /// resumes the requests that waited for it.
    func redispatchDeferred(_ request: Request) {
        guard isAwaitingReply else { return }
        isAwaitingReply = false
        guard !isClosing else { return }
        server.statistics.startBurst()
        server.dispatch(request, on: self, isRetry: true)
        resumeAfterDeferral()
    }

    /// Delivers a deferred reply and resumes the requests that waited for it.
    func completeDeferredReply(_ result: Result<Reply, ProtocolError>, tag: String?) {
        guard isAwaitingReply else { return }
        server.finishDeferredRequest(on: self, failed: result.isFailure)
        isAwaitingReply = false
        guard !isClosing else { return }
        switch result {
        case .success(let value): reply(value, tag: tag)
        case .failure(let error): reply(error, tag: tag)
        }
        resumeAfterDeferral()
    }

    /// Runs the requests that waited (within this turn's budget; the
    /// rest in later turns), then reads on.
    private func resumeAfterDeferral() {
        processBufferedRequests()
    }

    /// Sends an error that leaves the stream unusable, then closes.
    func fail(_ error: ProtocolError, tag: String?) {
        Log.warning("connection_protocol_error", ["id": id, "peer": peer, "code": error.code, "message": error.message])
        close(saying: error, tag: tag)
    }

    /// Sends `error` as the last line, then closes once output is written.
    func close(saying error: ProtocolError, tag: String?) {
        reply(error, tag: tag)
        finishAfterOutput()
    }

    // MARK: Output

    func reply(_ reply: Reply, tag: String?) {
        replyWriter.reply(reply.data, status: reply.status, value: reply.resp, tag: tag, into: &output)
        outputDidGrow()
    }

    /// A reply already encoded for this request's framing (``ReplyBuilder``,
    /// off the loop thread for a large one), added to the output in one
    /// move: taken whole when nothing else is waiting, else copied once.
    func reply(encoded bytes: consuming [UInt8]) {
        if output.isEmpty { output = bytes } else { output.append(contentsOf: bytes) }
        outputDidGrow()
    }

    /// ``completeDeferredReply(_:tag:)`` for a reply already encoded.
    func completeDeferredReply(encoded result: Result<[UInt8], ProtocolError>, tag: String?) {
        guard isAwaitingReply else { return }
        server.finishDeferredRequest(on: self, failed: result.isFailure)
        isAwaitingReply = false
        guard !isClosing else { return }
        switch consume result {
        case .success(let bytes): reply(encoded: bytes)
        case .failure(let error): reply(error, tag: tag)
        }
        resumeAfterDeferral()
    }

    /// A reply of memoised data lines and a status line written by
    /// `status` (the text after `OK `, not empty), encoded straight into
    /// the output: the same bytes as ``reply(_:tag:)`` of the equivalent
    /// ``Reply`` (the one writer makes both). `status` runs while the
    /// output is being written: it must write to its line only, never to
    /// this connection.
    func reply(data: EncodedDataLines, tag: String?, status: (inout ShortLine) -> Void) {
        let writer = replyWriter
        data.append(for: writer, to: &output)
        writer.okPrefix(tag: tag, into: &output)
        ShortLine.append(to: &output) { line in
            status(&line)
            line.writeLineEnd()
        }
        outputDidGrow()
    }

    /// Appends an asynchronous event line (`! …`). Events are only ever
    /// written between replies, since replies are written whole.
    ///
    /// An event with a `coalescingKey` (a stream's ticks, its `SENTENCE`
    /// events under another key) is held back while the connection's
    /// unsent output is over the soft limit, and a newer one with the same
    /// key replaces it: a reader that does not keep up skips ahead instead
    /// of falling behind, and holds at most one event per key. Held events
    /// go out once the output drains below the limit, and before any other
    /// event, in the order of their keys (a stream's tick key is below its
    /// sentence key: see ``TypewriterStream/tickCoalescingKey``).
    func send(event: EventLine, coalescingKey: Int? = nil) {
        guard !isClosing else { return }
        if let key = coalescingKey, pendingOutputBytes > server.configuration.outputSoftLimit {
            heldEvents[key] = event
            server.statistics.eventsCoalesced += 1
            return
        }
        releaseHeldEvents()
        encode(event: event)
        outputDidGrow()
    }

    /// An event as this connection reads them (see ``ReplyWriter/event(_:into:)``):
    /// a `! …` line; for Redis clients a pub/sub-style `message` array
    /// (RESP2) or push (RESP3) of the event's document id and its line.
    private func encode(event: EventLine) {
        // Counted for the turn budget of whichever request caused it.
        server.eventBytesQueued &+= event.line.count
        server.statistics.eventsSent &+= 1
        eventWriter.event(event, into: &output)
    }

    /// The newest held-back event per coalescing key: at most one per key
    /// (a connection's streams hold at most two keys each).
    private var heldEvents: [Int: EventLine] = [:]

    /// Sends the held events in key order. For a typewriter stream that
    /// puts its newest TICK before its SENTENCE, which is always right: a
    /// held SENTENCE is for the sentence of the stream's newest tick (a
    /// tick entering another sentence makes a SENTENCE that replaces it).
    ///
    /// - Complexity: O(k log k) for k held events.
    private func releaseHeldEvents() {
        guard !heldEvents.isEmpty else { return }
        for key in heldEvents.keys.sorted() {
            if let event = heldEvents[key] { encode(event: event) }
        }
        heldEvents.removeAll()
        outputDidGrow()
    }

    /// Called when output has drained: held events may go now.
    private func outputDidDrain() {
        if !heldEvents.isEmpty && pendingOutputBytes <= server.configuration.outputSoftLimit {
            releaseHeldEvents()
        }
    }

    /// Back-pressure: pauses the connection (no reading, no requests run)
    /// while more than the soft limit of its output is queued unsent, and
    /// resumes it (through the run queue, next pass) once writes completed
    /// below the limit. Output buffered in this turn does not count: it is
    /// bounded by the turn's budget and has not been offered to the kernel yet.
    private func updateBackPressure() {
        let limit = server.configuration.outputSoftLimit
        if queuedBytes + bytesInFlight > limit {
            guard !isPausedForOutput else { return }
            isPausedForOutput = true
            stopReading()
            server.statistics.outputPauses += 1
        } else if isPausedForOutput {
            isPausedForOutput = false
            server.scheduleRun(self)
        }
    }

    func reply(_ error: ProtocolError, tag: String?) {
        server.statistics.countError(error.code)
        replyWriter.error(error, tag: tag, into: &output)
        outputDidGrow()
    }

    private func outputDidGrow() {
        guard !isClosing else { return }
        let limit = outputHardLimit
        if pendingOutputBytes > limit {
            output.removeAll()
            queuedOutput.removeAll()
            queuedBytes = 0
            close(reason: "output over hard limit (\(limit) bytes, --output-hard-limit)")
            return
        }
        // Once per loop turn, not per reply.
        if !isQueuedForFlush { server.scheduleFlush(self) }
    }

    /// Stops reading requests and closes once all output is written.
    func finishAfterOutput() {
        guard !closesAfterOutput else { return }
        closesAfterOutput = true
        stopReading()
        server.scheduleFlush(self)
    }

    /// Writes buffered output: `uv_try_write` what the kernel takes now,
    /// then `uv_write` the rest, at most ``maximumWriteChunk`` bytes at a
    /// time (the next chunk when that write completes). Called by the
    /// server once per loop iteration, and after each write completes.
    func flush() {
        guard !isClosing else { return }
        if !output.isEmpty {
            var written = 0
            if bytesInFlight == 0 && queuedOutput.isEmpty {
                written = output.withUnsafeMutableBytes { bytes -> Int in
                    var buffer = uv_buf_init(
                        bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
                    return Int(uv_try_write(stream, &buffer, 1))
                }
                if written < 0 && written != Int(UV_EAGAIN.rawValue) {
                    close(reason: "write error \(LoopHandle.errorName(Int32(written)))")
                    return
                }
                written = max(written, 0)
                server.statistics.bytesSent &+= written
            }
            if written == output.count {
                output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
            } else {
                // Handed over whole: the array now belongs to the queue.
                let rest = output[written...]
                queuedOutput.append(rest)
                queuedBytes += rest.count
                output = []
            }
        }
        if bytesInFlight == 0 && !startNextWrite() { return }
        if closesAfterOutput && bytesInFlight == 0 && queuedOutput.isEmpty {
            close(reason: nil)
            return
        }
        updateBackPressure()
        outputDidDrain()
    }

    /// Hands the next chunk of ``queuedOutput`` to `uv_write`, if any.
    /// False if the connection was closed for a write error.
    private func startNextWrite() -> Bool {
        guard var head = queuedOutput.first else { return true }
        let chunk = head.prefix(Self.maximumWriteChunk)
        let status = PendingWrite.start(chunk, on: stream) { [unowned self] count, status in
            self.didWrite(count: count, status: status)
        }
        if status != 0 {
            close(reason: "write error \(LoopHandle.errorName(status))")
            return false
        }
        bytesInFlight += chunk.count
        queuedBytes -= chunk.count
        head = head.dropFirst(chunk.count)
        if head.isEmpty {
            queuedOutput.removeFirst()
        } else {
            queuedOutput[0] = head
        }
        return true
    }

    private func didWrite(count: Int, status: Int32) {
        bytesInFlight -= count
        if status == 0 { server.statistics.bytesSent &+= count }
        guard !isClosing else { return }
        if status != 0 {
            close(reason: "write error \(LoopHandle.errorName(status))")
        } else if !queuedOutput.isEmpty {
            // The next chunk, in this turn's output pass.
            server.scheduleFlush(self)
        } else if closesAfterOutput && bytesInFlight == 0 && output.isEmpty {
            close(reason: nil)
        } else {
            updateBackPressure()
            outputDidDrain()
        }
    }

    // MARK: Closing

    /// Closes now; queued writes are cancelled. `reason` nil is a normal close.
    func close(reason: String?) {
        guard !isClosing else { return }
        isClosing = true
        if let reason {
            Log.warning("connection_closed", ["id": id, "peer": peer, "reason": reason])
        } else {
            Log.info("connection_closed", ["id": id, "peer": peer])
        }
        server.connectionDidClose(self)
        LoopHandle.close(stream)
    }

    private static func peerName(_ stream: UnsafeMutablePointer<uv_stream_t>) -> String {
        let tcp = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: uv_tcp_t.self)
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_getpeername(tcp, $0, &length) }
        }
        guard status == 0 else { return "unknown" }
        return SocketAddress.describe(storage)
    }
}

@available(*, unavailable)
extension Connection: Sendable {}
