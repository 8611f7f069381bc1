// RedisConnection.swift: one connection to Redis on a libuv loop.
import CHiredis
import CUV

/// A connection to one Redis server, driven by the loop it was opened on
/// (hiredis's async API through its libuv adapter). Loop thread only.
///
/// ```swift
/// let redis = RedisConnection(loop: loop, host: "127.0.0.1", port: 6379) { error in … }
/// redis.send(["SET", "k", "v"]) { reply in … }   // reply: .status("OK")
/// ```
///
/// Every command's callback runs exactly once, on the loop thread: with
/// Redis's reply, or with ``RedisReply/disconnected(_:)`` when the
/// connection closes first. Commands sent before the connection is up are
/// queued by hiredis and written once it is. After ``close()`` (or a lost
/// connection) the object is spent: open a new one to reconnect.
public final class RedisConnection {
    /// Whether the connection is open (connected, not yet closed or lost).
    public internal(set) var isOpen = false
    /// Why the connection ended, once it has.
    public internal(set) var failure: String?

    /// What ``subscribe(pattern:confirmed:message:)`` asked for.
    var subscription: (confirmed: () -> Void, message: (_ channel: [UInt8], _ payload: [UInt8]) -> Void)?

    let onConnect: (String?) -> Void
    let onClose: (String?) -> Void
    /// hiredis's context while it lives (nil once hiredis frees it).
    var context: UnsafeMutablePointer<redisAsyncContext>?

    /// Opens a connection to `host:port` on `loop`. `onConnect` runs once:
    /// nil when connected, or why it failed. `onClose` runs once when an
    /// open connection ends: nil after ``close()``, else why.
    public init(loop: UnsafeMutablePointer<uv_loop_t>, host: String, port: Int,
                onConnect: @escaping (String?) -> Void, onClose: @escaping (String?) -> Void = { _ in }) {
        self.onConnect = onConnect
        self.onClose = onClose
        open(loop: loop, host: host, port: port)
    }

    /// Sends one command (its arguments, binary-safe); `reply` runs once.
    public func send(_ arguments: [String], reply: @escaping (RedisReply) -> Void) {
        send(arguments.map { Array($0.utf8) }, reply: reply)
    }

    /// Closes the connection after the replies already due have come
    /// (hiredis's redisAsyncDisconnect); their callbacks still run.
    public func close() {
        guard let context else { return }
        redisAsyncDisconnect(context)
    }
}
