// QuotationSpans.swift: the outermost matched brackets (and, for CJK,
// quotations) of a paragraph, inside which a sentence does not end.

/// The outermost matched pairs of a paragraph, in order.
///
/// Pairs match on a stack, so "(a [b) c]" records nothing wrong: an unmatched
/// closer is ignored and an opener never closed records no span, so an
/// unclosed quotation (common in fiction, where a quote runs on into the next
/// paragraph) never swallows the rest of the paragraph.
///
/// - Complexity: O(n) to build; queries advance a cursor, O(1) amortised
///   when asked in increasing order.
struct QuotationSpans {
    /// The pairs' offsets (opener, closer), in order; one array rather than
    /// two, as the stack below, to halve the allocations per paragraph.
    private var spans: [(open: Int, close: Int)] = []
    private var cursor = 0

    init(text: UnsafeBufferPointer<UInt16>, flags: UnsafeBufferPointer<UInt8>, range: Range<Int>,
         includeQuotations: Bool) {
        var open: [(offset: Int, closer: UInt16)] = []
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            // Brackets and quotation marks are rare: skip four units at a
            // time while none of them is one (as the paragraph scan does).
            while i + 4 <= end,
                  (flags[Int(text[i])] | flags[Int(text[i + 1])] | flags[Int(text[i + 2])]
                      | flags[Int(text[i + 3])]) & UnitClassTable.pairing == 0 {
                i += 4
            }
            guard i < end else { break }
            let position = i
            let u = text[position]
            i += 1
            if flags[Int(u)] & UnitClassTable.pairing == 0 { continue }
            if let innermost = open.last, u == innermost.closer {
                open.removeLast()
                if open.isEmpty { spans.append((innermost.offset, position)) }
                continue
            }
            if let closer = Self.closer(for: u, includeQuotations: includeQuotations) {
                open.append((position, closer))
            }
        }
    }

    private static func closer(for u: UInt16, includeQuotations: Bool) -> UInt16? {
        switch u {
        case 0x28: return 0x29          // ( )
        case 0x5B: return 0x5D          // [ ]
        case 0xFF08: return 0xFF09      // （ ）
        case 0xFF3B: return 0xFF3D      // ［ ］
        case 0x3010: return 0x3011      // 【 】
        case 0x3014: return 0x3015      // 〔 〕
        default: break
        }
        guard includeQuotations else { return nil }
        switch u {
        case 0x22: return 0x22          // " "
        case 0x201C: return 0x201D      // “ ”
        case 0x2018: return 0x2019      // ‘ ’
        case 0xAB: return 0xBB          // « »
        case 0x300C: return 0x300D      // 「 」
        case 0x300E: return 0x300F      // 『 』
        case 0x300A: return 0x300B      // 《 》
        case 0x3008: return 0x3009      // 〈 〉
        case 0xFF02: return 0xFF02      // ＂ ＂
        default: return nil
        }
    }

    /// Whether a terminator at `terminator`, whose closers end before
    /// `afterClosers`, lies inside a pair that closes only later. Queries
    /// must come in increasing order of `terminator`.
    mutating func embeds(terminator: Int, afterClosers: Int) -> Bool {
        while cursor < spans.count, spans[cursor].close < terminator { cursor += 1 }
        guard cursor < spans.count else { return false }
        return spans[cursor].open < terminator && spans[cursor].close >= afterClosers
    }
}
