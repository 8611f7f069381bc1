// BreakIteratorPool.swift: ICU break iterators opened once and reused (opening one costs tens of µs).
import CICU
import Foundation

/// Idle ICU break iterators, by kind, for reuse across shaping calls.
///
/// ICU iterators are not thread-safe, so each call borrows one exclusively:
/// concurrent shaping on several threads opens extra iterators, which are
/// kept for later (at most `maximumIdle` per kind).
///
/// - Complexity: borrowing is O(1) after the first use of a kind.
final class BreakIteratorPool: @unchecked Sendable {
    /// Idle iterators kept per kind; more are closed when returned.
    static let maximumIdle = 4

    private let lock = NSLock()
    private var idle: [UInt32: [OpaquePointer]] = [:]

    deinit {
        for iterators in idle.values { iterators.forEach { lc_break_close($0) } }
    }

    /// Calls `body` with an iterator of `kind` pointed at `text` (nil when ICU
    /// cannot open one). The iterator must not escape `body`.
    func withIterator<Result>(
        _ kind: LCBreakKind, text: UnsafeBufferPointer<UInt16>, _ body: (OpaquePointer?) -> Result
    ) -> Result {
        lock.lock()
        var iterator = idle[kind.rawValue]?.popLast()
        lock.unlock()
        if let existing = iterator, lc_break_set_text(existing, text.baseAddress, Int32(text.count)) > 0 {
            lc_break_close(existing) // U_FAILURE: drop it and open a fresh one
            iterator = nil
        }
        if iterator == nil {
            var error: Int32 = 0
            iterator = lc_break_open(kind, "", text.baseAddress, Int32(text.count), &error)
        }
        let result = body(iterator)
        if let used = iterator {
            // Detach from the caller's text before keeping it.
            _ = lc_break_set_text(used, nil, 0)
            lock.lock()
            let keep = idle[kind.rawValue, default: []].count < Self.maximumIdle
            if keep { idle[kind.rawValue, default: []].append(used) }
            lock.unlock()
            if !keep { lc_break_close(used) }
        }
        return result
    }
}
