// MetricsExchange.swift: the one value the metrics HTTP thread and the loop share.

import Foundation

/// What the metrics endpoint's HTTP thread (libmicrohttpd's) and the loop
/// thread share, and the rule that keeps it safe:
///
/// **The HTTP thread touches nothing of the daemon but this object.** It
/// asks for a snapshot (``awaitSnapshot(timeout:)``), which wakes the loop
/// through `uv_async_send` (thread-safe by libuv's contract) and waits; the
/// loop thread reads its own state as always, renders the Prometheus text
/// (an immutable String) and hands it over with ``publish(_:for:)``. Every
/// field here is read and written only with ``condition`` locked; the loop never
/// waits for the HTTP thread (it takes the mutex only to swap a value in).
///
/// A request that the loop does not answer within the timeout (the loop is
/// shutting down, or busy) gets the last snapshot published, or none.
final class MetricsExchange: @unchecked Sendable {
    /// The lock of every field below, and the signal of a publication.
    private let condition = NSCondition()
    /// Snapshots asked for so far; the loop answers them all at once.
    private var requested = 0
    /// The `requested` count the last snapshot answered.
    private var answered = 0
    private var snapshot: String?
    private var isClosed = false
    /// Wakes the loop (`uv_async_send`); safe from any thread.
    private let wakeLoop: @Sendable () -> Void

    init(wakeLoop: @escaping @Sendable () -> Void) {
        self.wakeLoop = wakeLoop
    }

    /// HTTP thread: a snapshot made after this call, or after `timeout`
    /// seconds the last one published (nil if none yet, or closed).
    func awaitSnapshot(timeout seconds: Int) -> String? {
        condition.lock()
        requested += 1
        let wanted = requested
        condition.unlock()
        wakeLoop()
        let deadline = Date(timeIntervalSinceNow: TimeInterval(seconds))
        condition.lock()
        defer { condition.unlock() }
        while answered < wanted && !isClosed {
            if !condition.wait(until: deadline) { break }
        }
        return snapshot
    }

    /// Loop thread: the snapshots asked for so far (pass it to ``publish(_:for:)``),
    /// 0 when every request has its answer.
    var unanswered: Int {
        condition.lock()
        defer { condition.unlock() }
        return requested > answered ? requested : 0
    }

    /// Loop thread: `text` answers every request up to `requests`.
    func publish(_ text: String, for requests: Int) {
        condition.lock()
        snapshot = text
        answered = max(answered, requests)
        condition.broadcast()
        condition.unlock()
    }

    /// Loop thread, at shutdown, before the HTTP server is stopped: every
    /// waiting request returns now, so that stopping it does not wait.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }
}
