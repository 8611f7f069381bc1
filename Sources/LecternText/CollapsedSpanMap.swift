// CollapsedSpanMap.swift: a sparse map between UTF-16 offsets and a unit that
// counts certain multi-unit spans as one (scalars, grapheme clusters).

/// Maps UTF-16 offsets to a coarser unit in which each recorded span counts
/// as one position, while every unit outside the spans counts as itself.
///
/// Scalars are UTF-16 with every surrogate pair collapsed; grapheme clusters
/// are UTF-16 with every cluster longer than one code unit collapsed. Only the
/// spans are stored, so text without surrogates or combining sequences costs
/// nothing, and conversion is a binary search over the spans.
///
/// - Complexity: O(log s) per conversion, s = number of spans.
struct CollapsedSpanMap: Sendable {
    /// UTF-16 start of each span, strictly increasing, spans disjoint.
    private(set) var starts: [Int] = []
    /// UTF-16 end of each span (exclusive).
    private(set) var ends: [Int] = []
    /// Units removed by collapsing spans 0...k: Σ (length − 1).
    private(set) var removedThrough: [Int] = []

    /// Records a span; spans must be appended in increasing order.
    mutating func append(start: Int, end: Int) {
        let removed = (removedThrough.last ?? 0) + (end - start - 1)
        starts.append(start)
        ends.append(end)
        removedThrough.append(removed)
    }

    /// Units removed by all spans.
    var totalRemoved: Int { removedThrough.last ?? 0 }

    /// The collapsed offset of a UTF-16 offset, or nil inside a span.
    func collapsed(fromUTF16 offset: Int) -> Int? {
        let k = countOfStarts(below: offset)
        guard k > 0 else { return offset }
        if offset < ends[k - 1] { return nil }
        return offset - removedThrough[k - 1]
    }

    /// The UTF-16 offset of a collapsed offset (always a boundary).
    func utf16(fromCollapsed offset: Int) -> Int {
        // Span k starts at collapsed offset starts[k] − removedThrough[k−1];
        // find how many spans start strictly before `offset`.
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            let collapsedStart = starts[mid] - (mid > 0 ? removedThrough[mid - 1] : 0)
            if collapsedStart < offset { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? offset + removedThrough[low - 1] : offset
    }

    private func countOfStarts(below offset: Int) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
