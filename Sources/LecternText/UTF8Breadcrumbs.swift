// UTF8Breadcrumbs.swift: UTF-8 offsets recorded every 64 UTF-16 code units,
// for converting between the two without rescanning the text.

/// Maps UTF-16 offsets to UTF-8 byte offsets through breadcrumbs: the pair of
/// offsets at the first scalar boundary at or after every multiple of
/// ``stride`` UTF-16 units (Swift's own String keeps UTF-16 breadcrumbs the
/// same way).
///
/// A conversion finds its breadcrumb (by division one way, binary search the
/// other) and then reads at most ``stride`` code units from there: never the
/// text before it. Memory is 8 bytes per 64 code units, whatever the script.
///
/// - Complexity: O(log n) per conversion, plus at most 64 code units read.
struct UTF8Breadcrumbs: Sendable {
    /// UTF-16 units between breadcrumbs.
    static let stride = 64

    private var utf16Offsets: [Int32] = []
    private var utf8Offsets: [Int32] = []
    /// The UTF-16 offset at or after which the next breadcrumb is due.
    private(set) var nextBreadcrumb = 0

    init(capacity: Int) {
        utf16Offsets.reserveCapacity(capacity / Self.stride + 1)
        utf8Offsets.reserveCapacity(capacity / Self.stride + 1)
    }

    /// Records the offsets of a scalar boundary; call when `utf16` reaches
    /// ``nextBreadcrumb``.
    mutating func drop(utf16: Int, utf8: Int) {
        utf16Offsets.append(Int32(truncatingIfNeeded: utf16))
        utf8Offsets.append(Int32(truncatingIfNeeded: utf8))
        nextBreadcrumb = (utf16 / Self.stride + 1) * Self.stride
    }

    /// The UTF-8 offset of a UTF-16 offset in 0...text.count, or nil between
    /// the halves of a surrogate pair.
    func utf8(fromUTF16 offset: Int, in text: [UInt16]) -> Int? {
        var k = Swift.min(offset / Self.stride, utf16Offsets.count - 1)
        while k > 0, Int(utf16Offsets[k]) > offset { k -= 1 }
        guard k >= 0 else { return offset }   // empty text
        var u = Int(utf16Offsets[k]), b = Int(utf8Offsets[k])
        while u < offset {
            let unit = text[u]
            if unit & 0xFC00 == 0xD800 {
                if u + 1 == offset { return nil }
                u += 2
                b += 4
            } else {
                u += 1
                b += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
            }
        }
        return b
    }

    /// The UTF-16 offset of a UTF-8 offset in 0...length, or nil inside a
    /// multi-byte sequence.
    func utf16(fromUTF8 offset: Int, in text: [UInt16]) -> Int? {
        var low = 0, high = utf8Offsets.count
        while low < high {
            let mid = (low + high) / 2
            if Int(utf8Offsets[mid]) <= offset { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return offset }  // empty text
        var u = Int(utf16Offsets[low - 1]), b = Int(utf8Offsets[low - 1])
        while b < offset, u < text.count {
            let unit = text[u]
            if unit & 0xFC00 == 0xD800 {
                u += 2
                b += 4
            } else {
                u += 1
                b += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
            }
        }
        return b == offset ? u : nil
    }
}
