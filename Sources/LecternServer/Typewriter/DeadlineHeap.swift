// DeadlineHeap.swift: a binary min-heap of deadlines, for the stream scheduler.

/// A min-heap of `(deadline, sequence, value)`: the earliest deadline on
/// top, ties broken by insertion order so equal deadlines fire in the order
/// they were scheduled.
///
/// - Complexity: `push` and `pop` O(log n), `peek` O(1).
struct DeadlineHeap<Value> {
    struct Entry {
        let deadline: Double
        let sequence: UInt64
        let value: Value

        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && sequence < other.sequence)
        }
    }

    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }
    var earliestDeadline: Double? { entries.first?.deadline }

    mutating func push(_ value: Value, at deadline: Double) {
        entries.append(Entry(deadline: deadline, sequence: nextSequence, value: value))
        nextSequence &+= 1
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if its deadline is at or before `now`.
    mutating func popDue(now: Double) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < entries.count, entries[left].precedes(entries[smallest]) { smallest = left }
                if right < entries.count, entries[right].precedes(entries[smallest]) { smallest = right }
                if smallest == parent { break }
                entries.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }
}
