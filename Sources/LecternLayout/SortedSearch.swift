// SortedSearch.swift: the binary search the layout's tables share.

extension RandomAccessCollection where Index == Int {
    /// In a collection sorted by `key`, the last index whose key is at most
    /// `value`; the start index when none is (or the collection is empty).
    /// Runs, lines and grapheme starts are each found by their lower bound
    /// this way.
    ///
    /// - Complexity: O(log n).
    @inline(__always)
    func lastIndex<Key: Comparable>(whereKeyIsAtMost value: Key, _ key: (Element) -> Key) -> Int {
        var low = startIndex
        var high = endIndex // invariant: key(self[low]) <= value < key(self[high]), or low is the start
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if key(self[mid]) <= value { low = mid } else { high = mid }
        }
        return low
    }
}
