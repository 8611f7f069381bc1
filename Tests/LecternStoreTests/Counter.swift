// Counter.swift: a thread-safe counter for tests that run work on several threads.

import Foundation

/// A thread-safe counter for tests that run work on several threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
