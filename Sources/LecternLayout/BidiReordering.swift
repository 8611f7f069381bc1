// BidiReordering.swift: UAX #9 rules L1 and L2 for one line: resolved levels to visual order.

/// Reorders one line's items from logical to visual order.
enum BidiReordering {
    /// Applies UAX #9 L1 (trailing whitespace and separators take the
    /// paragraph level) and L2 (from the highest level down to the lowest odd
    /// level, reverse every maximal run at that level or higher).
    ///
    /// - Parameters:
    ///   - levels: resolved embedding level per item, logical order; rewritten by L1.
    ///   - isTrailing: whether each item is whitespace or a separator for L1.
    ///   - paragraphLevel: the paragraph's base level.
    /// - Returns: item indices in visual order, left to right.
    /// - Complexity: O(n × number of distinct levels).
    static func visualOrder(levels: inout [UInt8], isTrailing: [Bool], paragraphLevel: UInt8) -> [Int] {
        var i = levels.count
        while i > 0, isTrailing[i - 1] {
            i -= 1
            levels[i] = paragraphLevel
        }
        var order = Array(levels.indices)
        guard let highest = levels.max() else { return order }
        let lowestOdd = levels.filter { $0 & 1 == 1 }.min() ?? (highest + 1)
        var level = highest
        while level >= lowestOdd, level > 0 {
            var start = 0
            while start < order.count {
                guard levels[order[start]] >= level else {
                    start += 1
                    continue
                }
                var end = start
                while end < order.count, levels[order[end]] >= level { end += 1 }
                order[start..<end].reverse()
                start = end
            }
            level -= 1
        }
        return order
    }
}
