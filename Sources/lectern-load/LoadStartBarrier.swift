// LoadStartBarrier.swift: the threads' loads start at one instant.

import CUV
import Synchronization

/// Holds each thread's ``LoadRunner`` once it is connected and set up,
/// until every thread is, then starts all their loads at one time, so the
/// threads share one schedule and one measured window, and their figures
/// add up.
///
/// The last thread to arrive takes the start time and wakes the others
/// through their async handles (the only libuv call that is safe from
/// another thread). A runner that ends early (no connection, Ctrl-C)
/// leaves: it counts as arrived, and its handle is forgotten before it is
/// closed. With one thread, arriving starts at once.
///
/// Any thread.
final class LoadStartBarrier: @unchecked Sendable {
    private struct State {
        var arrived = 0
        var start: UInt64?
        var waiting: [ObjectIdentifier: UnsafeMutablePointer<uv_async_t>] = [:]
    }

    private let threads: Int
    private let state = Mutex(State())

    init(threads: Int) {
        self.threads = threads
    }

    /// The runner is ready to load. Returns the start time if every thread
    /// now is (the others are woken); nil to wait for `wake`.
    func arrive(_ runner: AnyObject, wake: UnsafeMutablePointer<uv_async_t>) -> UInt64? {
        state.withLock { state in
            state.arrived += 1
            guard state.arrived == threads else {
                state.waiting[ObjectIdentifier(runner)] = wake
                return nil
            }
            let start = MonotonicClock.now()
            state.start = start
            for other in state.waiting.values { uv_async_send(other) }
            state.waiting.removeAll()
            return start
        }
    }

    /// The runner ends without (or while waiting for) a load: it no longer
    /// holds the others back, and its handle may be closed after this returns.
    func leave(_ runner: AnyObject, hasArrived: Bool) {
        state.withLock { state in
            state.waiting[ObjectIdentifier(runner)] = nil
            guard !hasArrived else { return }
            state.arrived += 1
            if state.arrived == threads && state.start == nil {
                state.start = MonotonicClock.now()
                for other in state.waiting.values { uv_async_send(other) }
                state.waiting.removeAll()
            }
        }
    }

    /// The common start time, once every thread has arrived.
    var start: UInt64? { state.withLock { $0.start } }
}
