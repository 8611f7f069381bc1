// RedisConnection+Unsafe.swift: the one place LecternRedis touches raw
// memory and manual retains: hiredis's context, its callbacks' `privdata`,
// and the argument vectors of a command.
//
// Invariants (RedisConnectionTests checks each by counting callbacks and
// by dropping every Swift reference while commands are in flight):
// - The connection is retained in `context->data` from `open` until hiredis
//   is done with the context: released once, by whichever of the connect
//   callback (on failure) or the disconnect callback runs, and `data` is set
//   to nil there, so a second callback finds nothing to release. While the
//   retain is held, the connection outlives every callback that can name it,
//   even when its user has dropped it.
// - Each command's reply closure is retained in that command's `privdata`
//   and released in its callback; hiredis calls every pending callback once,
//   with a NULL reply when the connection goes away first.
// - Subscription callbacks (PSUBSCRIBE) carry no privdata: hiredis calls
//   them for every message and once more with a NULL reply when the context
//   goes, so nothing per call is retained; they find the connection through
//   `context->data`, which hiredis frees only after them.
// - Argument buffers live only across `redisAsyncCommandArgv`, which copies
//   them into its output buffer before returning.
import CHiredis
import CUV
import Glibc

/// A reply closure in a command's `privdata`.
private final class PendingReply {
    let body: (RedisReply) -> Void
    init(_ body: @escaping (RedisReply) -> Void) { self.body = body }
}

extension RedisConnection {
    func open(loop: UnsafeMutablePointer<uv_loop_t>, host: String, port: Int) {
        guard let context = redisAsyncConnect(host, Int32(clamping: port)) else {
            failure = "out of memory opening a Redis connection"
            onConnect(failure)
            return
        }
        if context.pointee.err != 0 {
            failure = Self.errorText(context)
            redisAsyncFree(context)
            onConnect(failure)
            return
        }
        guard lectern_redis_attach(context, loop) == REDIS_OK else {
            failure = "hiredis could not attach the connection to the loop"
            redisAsyncFree(context)
            onConnect(failure)
            return
        }
        self.context = context
        context.pointee.data = Unmanaged.passRetained(self).toOpaque()
        redisAsyncSetConnectCallback(context) { constContext, status in
            guard let constContext, let data = constContext.pointee.data else { return }
            let context = UnsafeMutablePointer(mutating: constContext)
            let connection = Unmanaged<RedisConnection>.fromOpaque(data).takeUnretainedValue()
            if status == REDIS_OK {
                connection.isOpen = true
                connection.onConnect(nil)
            } else {
                // hiredis frees the context after this callback.
                let why = RedisConnection.errorText(constContext)
                context.pointee.data = nil
                connection.context = nil
                connection.failure = why
                connection.onConnect(why)
                Unmanaged<RedisConnection>.fromOpaque(data).release()
            }
        }
        redisAsyncSetDisconnectCallback(context) { constContext, status in
            guard let constContext, let data = constContext.pointee.data else { return }
            // hiredis frees the context after this callback.
            let context = UnsafeMutablePointer(mutating: constContext)
            let connection = Unmanaged<RedisConnection>.fromOpaque(data).takeUnretainedValue()
            context.pointee.data = nil
            connection.context = nil
            let wasOpen = connection.isOpen
            connection.isOpen = false
            let why: String? = status == REDIS_OK ? nil : RedisConnection.errorText(constContext)
            connection.failure = why ?? "closed"
            if wasOpen { connection.onClose(why) }
            Unmanaged<RedisConnection>.fromOpaque(data).release()
        }
    }

    /// Sends one command of binary-safe arguments; `reply` runs once.
    public func send(_ arguments: [[UInt8]], reply: @escaping (RedisReply) -> Void) {
        guard let context, !arguments.isEmpty else {
            reply(.disconnected(failure ?? (arguments.isEmpty ? "no command" : "not connected")))
            return
        }
        let pending = Unmanaged.passRetained(PendingReply(reply)).toOpaque()
        // C arrays of the arguments' pointers and lengths, alive for the call.
        let count = arguments.count
        let status: Int32 = withArgumentVector(arguments) { pointers, lengths in
            redisAsyncCommandArgv(context, { context, reply, privdata in
                guard let privdata else { return }
                let pending = Unmanaged<PendingReply>.fromOpaque(privdata).takeRetainedValue()
                let value: RedisReply
                if let reply {
                    value = RedisConnection.copy(reply.assumingMemoryBound(to: redisReply.self))
                } else {
                    value = .disconnected(context.map { RedisConnection.errorText(UnsafePointer($0)) } ?? "connection closed")
                }
                pending.body(value)
            }, pending, Int32(count), pointers, lengths)
        }
        if status != REDIS_OK {
            // Not queued (the context is disconnecting): hiredis will not call back.
            Unmanaged<PendingReply>.fromOpaque(pending).release()
            reply(.disconnected(failure ?? "the connection is closing"))
        }
    }

    /// Subscribes to the channels matching `pattern` (PSUBSCRIBE): once
    /// Redis confirms, `confirmed` runs; then `message` runs with each
    /// message's channel and payload, until the connection ends. A
    /// connection that subscribes takes no other commands (Redis's rule).
    /// One subscription per connection.
    public func subscribe(pattern: String, confirmed: @escaping () -> Void,
                          message: @escaping (_ channel: [UInt8], _ payload: [UInt8]) -> Void) {
        guard let context, subscription == nil else { return }
        subscription = (confirmed, message)
        let arguments = [Array("PSUBSCRIBE".utf8), Array(pattern.utf8)]
        _ = withArgumentVector(arguments) { pointers, lengths in
            redisAsyncCommandArgv(context, { context, reply, _ in
                guard let context, let data = context.pointee.data, let reply else { return }
                let connection = Unmanaged<RedisConnection>.fromOpaque(data).takeUnretainedValue()
                guard case .array(let parts) = RedisConnection.copy(reply.assumingMemoryBound(to: redisReply.self)),
                      let kind = parts.first?.string
                else { return }
                switch kind {
                case "psubscribe": connection.subscription?.confirmed()
                case "pmessage":
                    guard parts.count == 4, case .bulk(let channel) = parts[2], case .bulk(let payload) = parts[3] else { return }
                    connection.subscription?.message(channel, payload)
                default: break
                }
            }, nil, Int32(arguments.count), pointers, lengths)
        }
    }

    private func withArgumentVector<R>(_ arguments: [[UInt8]],
                                       _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R) -> R {
        let pointers = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: arguments.count)
        let lengths = UnsafeMutablePointer<Int>.allocate(capacity: arguments.count)
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, arguments.reduce(0) { $0 + $1.count }))
        defer { pointers.deallocate(); lengths.deallocate(); storage.deallocate() }
        var offset = 0
        for (index, argument) in arguments.enumerated() {
            argument.withUnsafeBufferPointer { bytes in
                if let base = bytes.baseAddress { (storage + offset).update(from: base, count: bytes.count) }
            }
            pointers[index] = UnsafeRawPointer(storage + offset).assumingMemoryBound(to: CChar.self)
            lengths[index] = argument.count
            offset += argument.count
        }
        return body(pointers, lengths)
    }

    /// A copy of hiredis's reply (which it frees after the callback).
    static func copy(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let r = reply.pointee
        func bytes() -> [UInt8] {
            guard let str = r.str, r.len > 0 else { return [] }
            return Array(UnsafeRawBufferPointer(start: str, count: Int(r.len)))
        }
        switch r.type {
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: return .integer(r.integer)
        case REDIS_REPLY_STRING: return .bulk(bytes())
        case REDIS_REPLY_NIL: return .null
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(Int(r.elements))
            for index in 0..<Int(r.elements) {
                if let element = r.element[index] { elements.append(copy(element)) } else { elements.append(.null) }
            }
            return .array(elements)
        default:
            return .error("unknown reply type \(r.type)")
        }
    }

    /// hiredis's sentence for the context's error, from the underlying
    /// context's 128-byte buffer (hiredis copies it to the async context's
    /// `errstr` only after the connect callback has run).
    static func errorText(_ context: UnsafePointer<redisAsyncContext>) -> String {
        withUnsafeBytes(of: context.pointee.c.errstr) { raw in
            let text = raw.prefix(while: { $0 != 0 })
            return text.isEmpty ? "connection lost" : String(decoding: text, as: UTF8.self)
        }
    }
}
