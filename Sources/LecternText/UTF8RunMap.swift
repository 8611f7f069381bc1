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
    private var utf16Starts: [Int] = []
    private var utf8Starts: [Int] = []
    /// UTF-8 bytes per scalar in each run (4 means a surrogate pair in UTF-16).
    private var widths: [UInt8] = []

    /// Notes a scalar of `width` UTF-8 bytes at the given offsets; starts a
    /// new run when the width changes. Scalars must come in text order.
    @inline(__always)
    mutating func note(width: UInt8, utf16: Int, utf8: Int) {
        if widths.last != width {
            widths.append(width)
            utf16Starts.append(utf16)
            utf8Starts.append(utf8)
        }
    }

    /// The UTF-8 offset of a UTF-16 offset in 0...length, or nil between the
    /// halves of a surrogate pair.
    func utf8(fromUTF16 offset: Int) -> Int? {
        guard let k = lastRun(in: utf16Starts, atOrBelow: offset) else { return offset }
        let distance = offset - utf16Starts[k]
        if widths[k] == 4 {
            return distance % 2 == 0 ? utf8Starts[k] + distance * 2 : nil
        }
        return utf8Starts[k] + distance * Int(widths[k])
    }

    /// The UTF-16 offset of a UTF-8 offset in 0...length, or nil inside a
    /// multi-byte sequence.
    func utf16(fromUTF8 offset: Int) -> Int? {
        guard let k = lastRun(in: utf8Starts, atOrBelow: offset) else { return offset }
        let distance = offset - utf8Starts[k]
        let width = Int(widths[k])
        guard distance % width == 0 else { return nil }
        return utf16Starts[k] + distance / width * (width == 4 ? 2 : 1)
    }

    private func lastRun(in starts: [Int], atOrBelow offset: Int) -> Int? {
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= offset { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? low - 1 : nil
    }
}
