// TextDecoder.swift: one pass from UTF-8 bytes to UTF-16, index maps and
// paragraphs, validating as it goes.

/// Decodes UTF-8 into the pieces of a ``DocumentText`` in a single pass:
/// UTF-16 code units, the UTF-8 run map, surrogate pairs, multi-unit grapheme
/// clusters (Swift's own `Character` rules, via the standard library's
/// grapheme recognizer) and paragraph ranges.
///
/// - Complexity: O(n) in the byte count; printable ASCII takes a fast path
///   that skips the grapheme recognizer (two printable ASCII scalars always
///   have a grapheme boundary between them, UAX #29 GB999).
struct TextDecoder {
    private(set) var utf16: [UInt16] = []
    private(set) var paragraphs: [Paragraph] = []
    private var runs = UTF8RunMap()
    private var surrogatePairs = CollapsedSpanMap()
    private var clusters = CollapsedSpanMap()
    private var recognizer = Unicode._CharacterRecognizer()
    private var recognizerBehind = false
    private var previous: UInt32 = 0
    private var previousIsPrintableASCII = false
    private var clusterStart = 0
    private var paragraphStart = 0

    /// Decodes `bytes` or throws at the first ill-formed sequence.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(TextDecodingError) -> TextDecoder {
        var decoder = TextDecoder()
        decoder.utf16.reserveCapacity(bytes.count)
        let count = bytes.count
        var i = 0
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 {
                decoder.append(UInt32(lead), width: 1, at: i)
                i += 1
                continue
            }
            guard let (scalar, width) = decodeMultiByte(bytes, at: i) else {
                throw .invalidUTF8(byteOffset: i)
            }
            decoder.append(scalar, width: width, at: i)
            i += Int(width)
        }
        decoder.finish(utf8Length: count)
        guard decoder.utf16.count <= DocumentText.maximumUTF16Length else {
            throw .tooLong(utf16Length: decoder.utf16.count)
        }
        return decoder
    }

    /// The index map of everything decoded.
    func indexMap(utf8Length: Int) -> IndexMap {
        IndexMap(utf8Runs: runs, surrogatePairs: surrogatePairs, clusters: clusters,
                 utf16Length: utf16.count, utf8Length: utf8Length)
    }

    /// Well-formed multi-byte sequences per Unicode § 3.9, Table 3-7.
    @inline(__always)
    private static func decodeMultiByte(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, UInt8)? {
        let lead = bytes[i]
        let count = bytes.count
        @inline(__always) func continuation(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> UInt32? {
            guard k < count, bytes[k] >= low, bytes[k] <= high else { return nil }
            return UInt32(bytes[k] & 0x3F)
        }
        switch lead {
        case 0xC2...0xDF:
            guard let c1 = continuation(i + 1) else { return nil }
            return (UInt32(lead & 0x1F) << 6 | c1, 2)
        case 0xE0...0xEF:
            let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
            guard let c1 = continuation(i + 1, low, high), let c2 = continuation(i + 2) else { return nil }
            return (UInt32(lead & 0x0F) << 12 | c1 << 6 | c2, 3)
        case 0xF0...0xF4:
            let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
            guard let c1 = continuation(i + 1, low, high), let c2 = continuation(i + 2),
                  let c3 = continuation(i + 3) else { return nil }
            return (UInt32(lead & 0x07) << 18 | c1 << 12 | c2 << 6 | c3, 4)
        default:
            return nil
        }
    }

    @inline(__always)
    private mutating func append(_ scalar: UInt32, width: UInt8, at byteOffset: Int) {
        let offset = utf16.count
        runs.note(width: width, utf16: offset, utf8: byteOffset)
        if startsCluster(scalar) {
            if offset - clusterStart > 1 { clusters.append(start: clusterStart, end: offset) }
            clusterStart = offset
        }
        if scalar >= 0x10000 {
            let value = scalar - 0x10000
            utf16.append(UInt16(0xD800 | (value >> 10)))
            utf16.append(UInt16(0xDC00 | (value & 0x3FF)))
            surrogatePairs.append(start: offset, end: offset + 2)
        } else {
            utf16.append(UInt16(truncatingIfNeeded: scalar))
            if scalar == 0x0A || scalar == 0x2029 {
                let contentEnd = scalar == 0x0A && previous == 0x0D ? offset - 1 : offset
                paragraphs.append(Paragraph(range: paragraphStart..<offset + 1,
                                            content: paragraphStart..<contentEnd))
                paragraphStart = offset + 1
            }
        }
        previous = scalar
    }

    /// Whether a grapheme cluster starts before `scalar` (Swift's rules).
    @inline(__always)
    private mutating func startsCluster(_ scalar: UInt32) -> Bool {
        let printable = scalar >= 0x20 && scalar < 0x7F
        defer { previousIsPrintableASCII = printable }
        if printable && previousIsPrintableASCII {
            recognizerBehind = true
            return true
        }
        guard let next = Unicode.Scalar(scalar) else { return true }
        if recognizerBehind, let last = Unicode.Scalar(previous) {
            // The skipped scalars were printable ASCII, which never extends a
            // cluster, so the last one alone is the recognizer's whole state.
            recognizer = Unicode._CharacterRecognizer()
            _ = recognizer.hasBreak(before: last)
            recognizerBehind = false
        }
        return recognizer.hasBreak(before: next)
    }

    private mutating func finish(utf8Length: Int) {
        let end = utf16.count
        if end - clusterStart > 1 { clusters.append(start: clusterStart, end: end) }
        if paragraphStart < end {
            paragraphs.append(Paragraph(range: paragraphStart..<end, content: paragraphStart..<end))
        }
    }
}
