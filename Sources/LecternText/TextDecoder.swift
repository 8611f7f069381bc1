// TextDecoder.swift: one pass from UTF-8 bytes to UTF-16, index maps and
// paragraphs, validating as it goes.

/// What one decoding pass produces.
struct DecodedText {
    var utf16: [UInt16]
    var paragraphs: [Paragraph]
    var indexMap: IndexMap
}

/// Decodes UTF-8 into the pieces of a ``DocumentText`` in a single pass:
/// UTF-16 code units, UTF-8 breadcrumbs, surrogate pairs, multi-unit grapheme
/// clusters (Swift's own `Character` rules) and paragraph ranges.
///
/// Grapheme boundaries come from the standard library's grapheme recognizer,
/// except between two "simple" scalars (``isSimple(_:)``), which always have a
/// boundary between them (UAX #29 GB999) and need no recognizer: this fast
/// path covers nearly all Latin, Cyrillic, Greek, CJK and Hangul text. When a
/// scalar that is not simple follows, the recognizer is re-seeded with the
/// simple scalar before it, which is all the state it needs.
///
/// - Complexity: O(n) in the byte count, with one write per UTF-16 unit.
enum TextDecoder {
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(TextDecodingError) -> DecodedText {
        let count = bytes.count
        guard count <= DocumentText.maximumUTF8Length else { throw .tooLong(byteCount: count) }
        let out = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: max(count, 1))
        defer { out.deallocate() }
        var state = State(capacity: count)
        // The recognizer is a resilient standard-library type: kept out of
        // `State` so that State stays fixed-size and its fields in registers.
        var recognizer = Unicode._CharacterRecognizer()
        let flags = UnitClassTable.decoderFlags
        var i = 0
        while i < count {
            if state.o >= state.breadcrumbs.nextBreadcrumb { state.breadcrumbs.drop(utf16: state.o, utf8: i) }
            if state.previousIsSimple {
                i = state.copySimpleRun(bytes, from: i, into: out, flags: flags)
                guard i < count else { break }
                if state.o >= state.breadcrumbs.nextBreadcrumb { continue }
            }
            let lead = bytes[i]
            if lead < 0x80 {
                let wasCR = state.previous == 0x0D
                state.cluster(UInt32(lead), simple: true, &recognizer)
                out[state.o] = UInt16(lead)
                state.o += 1
                i += 1
                if lead == 0x0A { state.endParagraph(separatorLength: wasCR ? 2 : 1) }
                continue
            }
            guard let (scalar, width) = decodeMultiByte(bytes, at: i) else {
                throw TextDecodingError.invalidUTF8(byteOffset: i)
            }
            if scalar >= 0x10000 {
                state.cluster(scalar, simple: false, &recognizer)
                let value = scalar - 0x10000
                out[state.o] = UInt16(truncatingIfNeeded: 0xD800 | (value >> 10))
                out[state.o + 1] = UInt16(truncatingIfNeeded: 0xDC00 | (value & 0x3FF))
                state.surrogatePairs.append(start: state.o, end: state.o + 2)
                state.o += 2
            } else {
                state.cluster(scalar, simple: flags[Int(scalar)] & UnitClassTable.simple != 0, &recognizer)
                out[state.o] = UInt16(truncatingIfNeeded: scalar)
                state.o += 1
                if scalar == 0x2029 { state.endParagraph(separatorLength: 1) }
            }
            i += Int(width)
        }
        state.finish()
        state.paragraphs.foldTrailingBlankParagraphs(in: UnsafeBufferPointer(rebasing: out[0..<state.o]))
        let utf16 = Array(UnsafeBufferPointer(rebasing: out[0..<state.o]))
        let indexMap = IndexMap(utf16: utf16, utf8Breadcrumbs: state.breadcrumbs, surrogatePairs: state.surrogatePairs,
                                clusters: state.clusters, utf8Length: count)
        return DecodedText(utf16: utf16, paragraphs: state.paragraphs, indexMap: indexMap)
    }

    /// Everything the pass accumulates besides the code units themselves.
    private struct State {
        var breadcrumbs: UTF8Breadcrumbs
        var surrogatePairs = CollapsedSpanMap()
        var clusters = CollapsedSpanMap()
        var paragraphs: [Paragraph] = []
        /// UTF-16 units written so far.
        var o = 0
        var previous: UInt32 = 0
        var previousIsSimple = false
        /// Whether simple scalars were skipped since the recognizer last ran.
        var recognizerBehind = false
        var clusterStart = 0
        var paragraphStart = 0

        init(capacity: Int) {
            breadcrumbs = UTF8Breadcrumbs(capacity: capacity)
        }

        /// The fast path: copies printable ASCII and three-byte simple scalars
        /// (after a simple scalar, each starts its own cluster) up to the next
        /// breadcrumb; returns the byte offset where it stopped. Anything else
        /// (line feeds, two- and four-byte sequences, E0 leads, ill-formed
        /// bytes) stops it and goes through the careful path.
        @inline(__always)
        mutating func copySimpleRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int,
                                    into out: UnsafeMutableBufferPointer<UInt16>,
                                    flags: UnsafeBufferPointer<UInt8>) -> Int {
            let count = bytes.count
            let stop = breadcrumbs.nextBreadcrumb
            var i = start, unit = o
            // Eight printable ASCII bytes at a time (no byte ≥ 0x80 or < 0x20).
            if let base = UnsafeRawPointer(bytes.baseAddress) {
                while unit + 8 <= stop, i + 8 <= count {
                    let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    let high: UInt64 = 0x8080_8080_8080_8080
                    guard word & high == 0, (word &- 0x2020_2020_2020_2020) & ~word & high == 0 else { break }
                    for k in 0..<8 { out[unit + k] = UInt16(truncatingIfNeeded: word >> (8 * UInt64(k))) & 0xFF }
                    unit += 8
                    i += 8
                }
            }
            // Printable ASCII and simple three-byte scalars, mixed. Korean and
            // Chinese text alternate between the two every few units, so a
            // branch on the lead byte would mispredict at almost every word:
            // each step is computed instead (a lead below 0x80 is one byte,
            // any other that passes the checks three), and the only branch
            // leaves the loop. The loop is then bound by the chain from one
            // lead byte to the next; two scalars per iteration shorten it,
            // the second lead being taken from a word already loaded.
            if let base = UnsafeRawPointer(bytes.baseAddress) {
                while unit &+ 2 <= stop, i &+ 8 <= count {
                    let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    let lead0 = UInt8(truncatingIfNeeded: word)
                    let step0 = 1 &+ 2 &* Int(lead0 >> 7)
                    let lead1 = UInt8(truncatingIfNeeded: word >> UInt64(8 &* step0))
                    let first = Self.fastScalar(bytes, at: i, lead: lead0, flags: flags)
                    let second = Self.fastScalar(bytes, at: i &+ step0, lead: lead1, flags: flags)
                    guard (first.fast ? 1 : 0) & (second.fast ? 1 : 0) != 0 else { break }
                    out[unit] = UInt16(truncatingIfNeeded: first.scalar)
                    out[unit &+ 1] = UInt16(truncatingIfNeeded: second.scalar)
                    unit &+= 2
                    i &+= step0 &+ 1 &+ 2 &* Int(lead1 >> 7)
                }
            }
            // Then one at a time, up to the breadcrumb or the first scalar
            // that is not for the fast path.
            while unit < stop, i &+ 2 < count {
                let lead = bytes[i]
                let next = Self.fastScalar(bytes, at: i, lead: lead, flags: flags)
                guard next.fast else { break }
                out[unit] = UInt16(truncatingIfNeeded: next.scalar)
                unit &+= 1
                i &+= 1 &+ 2 &* Int(lead >> 7)
            }
            // Fewer than three bytes left: printable ASCII one byte at a time.
            while unit < stop, i < count, bytes[i] &- 0x20 < 0x5F {
                out[unit] = UInt16(bytes[i])
                unit += 1
                i += 1
            }
            if unit > o {
                if o - clusterStart > 1 { clusters.append(start: clusterStart, end: o) }
                clusterStart = unit - 1
                previous = UInt32(out[unit - 1])
                recognizerBehind = true
                o = unit
            }
            return i
        }

        /// The scalar starting at `i`, whose lead byte is `lead`, and whether
        /// it may take the fast path: printable ASCII (one byte), or a
        /// simple scalar in three bytes. Computed without branches; reads
        /// `bytes[i + 1]` and `bytes[i + 2]`, which must exist.
        @inline(__always)
        static func fastScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, lead: UInt8,
                               flags: UnsafeBufferPointer<UInt8>) -> (scalar: UInt32, fast: Bool) {
            let c1 = bytes[i &+ 1], c2 = bytes[i &+ 2]
            let wide = UInt32(lead >> 7)                   // 1 for a multi-byte lead
            let threeByteScalar = UInt32(lead & 0x0F) << 12 | UInt32(c1 & 0x3F) << 6 | UInt32(c2 & 0x3F)
            let scalar = UInt32(lead) ^ ((threeByteScalar ^ UInt32(lead)) & (0 &- wide))
            // Three bytes E0–EF 80–BF 80–BF are well-formed (Table 3-7)
            // except ED A0–BF xx (surrogates) and E0 80–9F xx (overlong,
            // below U+0800), neither of which the table marks for the fast
            // path; nor does it mark ASCII controls (line feeds end
            // paragraphs, CR LF is one cluster): the careful path takes them.
            let sequence = UInt32(lead) << 16 | UInt32(c1) << 8 | UInt32(c2)
            let wellFormed = (1 &- wide) | (sequence & 0xF0C0C0 == 0xE08080 ? 1 : 0)
            let fast = UInt32(flags[Int(scalar)] >> 7)      // UnitClassTable.decoderFastPath (of decoderFlags)
            return (scalar, wellFormed & fast != 0)
        }

        /// Notes a grapheme boundary (or not) before `scalar`, about to be
        /// written at UTF-16 offset `o`.
        @inline(__always)
        mutating func cluster(_ scalar: UInt32, simple: Bool, _ recognizer: inout Unicode._CharacterRecognizer) {
            let isBreak: Bool
            if simple && previousIsSimple {
                // GB3 (CR × LF) is the only rule between simple scalars.
                isBreak = !(previous == 0x0D && scalar == 0x0A)
                recognizerBehind = true
            } else {
                isBreak = recognizerBreak(before: scalar, &recognizer)
            }
            if isBreak {
                if o - clusterStart > 1 { clusters.append(start: clusterStart, end: o) }
                clusterStart = o
            }
            previous = scalar
            previousIsSimple = simple
        }

        private mutating func recognizerBreak(before scalar: UInt32,
                                              _ recognizer: inout Unicode._CharacterRecognizer) -> Bool {
            if recognizerBehind, let last = Unicode.Scalar(previous) {
                recognizer = Unicode._CharacterRecognizer()
                _ = recognizer.hasBreak(before: last)
                recognizerBehind = false
            }
            guard let next = Unicode.Scalar(scalar) else { return true }
            return recognizer.hasBreak(before: next)
        }

        mutating func endParagraph(separatorLength: Int) {
            paragraphs.append(Paragraph(range: paragraphStart..<o, content: paragraphStart..<o - separatorLength))
            paragraphStart = o
        }

        mutating func finish() {
            if o - clusterStart > 1 { clusters.append(start: clusterStart, end: o) }
            if paragraphStart < o {
                paragraphs.append(Paragraph(range: paragraphStart..<o, content: paragraphStart..<o))
            }
        }
    }

    /// Scalars whose Grapheme_Cluster_Break is Other (or Control) and that
    /// are neither Extended_Pictographic, Regional Indicators, Prepend,
    /// Indic conjunct consonants nor Hangul jamo: between two of them there is
    /// always a boundary (except CR LF). ASCII is handled by the caller.
    static func isSimple(_ c: UInt32) -> Bool {
        switch c {
        case 0xA0...0xA8, 0xAA...0xAD, 0xAF...0x2FF,          // Latin-1 (not © ®), Latin Extended
             0x370...0x482, 0x48A...0x52F,                    // Greek, Cyrillic (not combining marks)
             0x2010...0x2027, 0x2030...0x203B, 0x203D...0x2048, 0x204A...0x205E, // punctuation (not ‼ ⁉)
             0x3000...0x3029, 0x3031...0x303C, 0x3041...0x3096, 0x309B...0x30FF, // CJK punctuation, kana
             0x3400...0x4DBF, 0x4E00...0x9FFF,                // Han
             0xAC00...0xD7A3,                                 // Hangul syllables
             0xFF01...0xFF9D:                                 // full-width and half-width forms
            return true
        default:
            return false
        }
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
}
