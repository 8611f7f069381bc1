// Worker.swift: a thread that can be waited for with a deadline, and a flag to stop it.

import Foundation

/// Runs `body` on its own thread; ``join(until:)`` waits for it, but never
/// past a deadline, so a worker stuck on a stalled daemon cannot hang the run.
final class Worker: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping () -> Void) {
        let done = self.done
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
    }

    private let lock = NSLock()
    private var joined = false

    /// Whether the body returned before `deadline` (monotonic seconds).
    /// Once it has, every later call says so at once.
    @discardableResult
    func join(until deadline: Double) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if !joined { joined = done.wait(timeout: .now() + max(0, deadline - Monotonic.now())) == .success }
        return joined
    }
}

/// A boolean set by one thread and read by others.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
