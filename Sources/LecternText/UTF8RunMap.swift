// UTF8RunMap.swift: run-length map between UTF-16 offsets and UTF-8 bytes.

/// Maps UTF-16 offsets to UTF-8 byte offsets through runs of scalars that
/// share one encoded width (1, 2, 3 or 4 bytes).
///
/// Inside a run every scalar has the same UTF-8 length and the same UTF-16
/// length, so an offset converts by one multiplication once its run is found
/// by binary search. ASCII text is a single run; Cyrillic or Hangul prose
/// alternates between runs at spaces and punctuation.
///
/// - Complexity: O(log r) per conversion, r = number of runs.
struct UTF8RunMap: Sendable {
    /// A run: where it starts in both units, and its scalars' UTF-8 width
    /// (4 means a surrogate pair in UTF-16).
    private struct Run {
        var utf16: Int
        var utf8: Int
        var width: Int
    }

    private var runs: [Run] = []

    /// Starts a run of scalars of `width` UTF-8 bytes at the given offsets.
    /// Runs must come in text order, each with a width unlike the last.
    @inline(__always)
    mutating func startRun(width: UInt8, utf16: Int, utf8: Int) {
        runs.append(Run(utf16: utf16, utf8: utf8, width: Int(width)))
    }

    /// Reserves room for about `count` runs.
    mutating func reserveCapacity(_ count: Int) { runs.reserveCapacity(count) }

    /// The UTF-8 offset of a UTF-16 offset in 0...length, or nil between the
    /// halves of a surrogate pair.
    func utf8(fromUTF16 offset: Int) -> Int? {
        guard let k = lastRun(atOrBelow: offset, \.utf16) else { return offset }
        let run = runs[k]
        let distance = offset - run.utf16
        if run.width == 4 {
            return distance % 2 == 0 ? run.utf8 + distance * 2 : nil
        }
        return run.utf8 + distance * run.width
    }

    /// The UTF-16 offset of a UTF-8 offset in 0...length, or nil inside a
    /// multi-byte sequence.
    func utf16(fromUTF8 offset: Int) -> Int? {
        guard let k = lastRun(atOrBelow: offset, \.utf8) else { return offset }
        let run = runs[k]
        let distance = offset - run.utf8
        guard distance % run.width == 0 else { return nil }
        return run.utf16 + distance / run.width * (run.width == 4 ? 2 : 1)
    }

    private func lastRun(atOrBelow offset: Int, _ start: KeyPath<Run, Int>) -> Int? {
        var low = 0, high = runs.count
        while low < high {
            let mid = (low + high) / 2
            if runs[mid][keyPath: start] <= offset { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? low - 1 : nil
    }
}
