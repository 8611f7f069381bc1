// QuotationSpans.swift: the outermost matched brackets (and, for CJK,
// quotations) of a paragraph, inside which a sentence does not end.

/// The outermost matched pairs of a paragraph, in order.
///
/// Pairs match on a stack, so "(a [b) c]" records nothing wrong: an unmatched
/// closer is ignored and an opener never closed records no span, so an
/// unclosed quotation (common in fiction, where a quote runs on into the next
/// paragraph) never swallows the rest of the paragraph.
///
/// A stray mark must not pair with a closer far away and hide every sentence
/// end in between, so a pair counts only when it is plausible:
///
/// - Emoticons are no brackets: "(:" and ":(" open nothing, ":)", ";-)",
///   "=)" close nothing (``isEmoticon(at:)``).
/// - A list item's ")" ("… is fast. iii) The") closes nothing
///   (``isListMarkerCloser(at:)``).
/// - A pair longer than ``maximumSpanLength`` is no span: parentheticals and
///   quoted speech are short, and an opener that far back is a stray one.
/// - A pair holding ``maximumEmbeddedSentenceEnds`` or more sentence ends
///   of cased text (a terminator, a space, an upper-case letter) is no span:
///   those ends would be boundaries without it, and a parenthetical holding
///   several sentences is rarer than a stray bracket. (CJK sentences inside
///   a quotation need no space, so 「こんにちは。元気？」 stays one span.)
///
/// - Complexity: O(n) to build; queries advance a cursor, O(1) amortised
///   when asked in increasing order.
struct QuotationSpans {
    /// The pairs' offsets (opener, closer), in order; one array rather than
    /// two, as the stack below, to halve the allocations per paragraph.
    private var spans: [(open: Int, close: Int)] = []
    private var cursor = 0

    /// The longest pair, in UTF-16 code units, that counts as a span.
    static let maximumSpanLength = 300

    /// A pair with this many sentence ends inside it is no span.
    static let maximumEmbeddedSentenceEnds = 2

    init(text: UnsafeBufferPointer<UInt16>, flags: UnsafeBufferPointer<UInt8>, range: Range<Int>,
         includeQuotations: Bool) {
        // Each open pair: where it opened, its closer, and how many sentence
        // ends had been seen when it opened.
        var open: [(offset: Int, closer: UInt16, endsBefore: Int)] = []
        var sentenceEnds = 0
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            // Brackets, quotation marks and terminators are rare: skip four
            // units at a time while none of them is one (as the paragraph
            // scan does). Sentence ends are counted only inside a pair.
            let mask = open.isEmpty ? UnitClassTable.pairing : UnitClassTable.pairing | UnitClassTable.terminator
            while i + 4 <= end,
                  (flags[Int(text[i])] | flags[Int(text[i + 1])] | flags[Int(text[i + 2])]
                      | flags[Int(text[i + 3])]) & mask == 0 {
                i += 4
            }
            guard i < end else { break }
            let position = i
            let u = text[position]
            i += 1
            let unitFlags = flags[Int(u)]
            if unitFlags & mask == 0 { continue }
            if unitFlags & UnitClassTable.terminator != 0,
               Self.endsCasedSentence(text: text, terminator: position, limit: end) {
                sentenceEnds += 1
            }
            if unitFlags & UnitClassTable.pairing == 0 { continue }
            // Openers too far back can never make a span: drop them, so that
            // their closers, when they come, close nothing.
            if let first = open.first, position - first.offset > Self.maximumSpanLength {
                open.removeAll { position - $0.offset > Self.maximumSpanLength }
            }
            if Self.isEmoticon(text: text, at: position, range: range) { continue }
            if let innermost = open.last, u == innermost.closer {
                if u == 0x29, Self.isListMarkerCloser(text: text, at: position, range: range) { continue }
                open.removeLast()
                if open.isEmpty, sentenceEnds - innermost.endsBefore < Self.maximumEmbeddedSentenceEnds {
                    spans.append((innermost.offset, position))
                }
                continue
            }
            if let closer = Self.closer(for: u, includeQuotations: includeQuotations) {
                open.append((position, closer, sentenceEnds))
            }
        }
    }

    /// Whether the terminator at `t` ends a sentence of cased text: a run of
    /// terminators, white space, then an upper-case letter ("left. Then").
    /// Looks at most a few units ahead.
    private static func endsCasedSentence(text: UnsafeBufferPointer<UInt16>, terminator t: Int, limit: Int) -> Bool {
        var j = t + 1
        while j < limit, j - t < 8, CharacterClass.terminator(text[j]) != nil { j += 1 }
        guard j < limit, CharacterClass.isWhiteSpace(text[j]) else { return false }
        while j < limit, j - t < 16, CharacterClass.isWhiteSpace(text[j]) { j += 1 }
        guard j < limit else { return false }
        return CharacterClass.isUppercase(CharacterClass.scalar(at: j, in: text))
    }

    /// "(:", "(;", ":(", ";(", "=(", ":-(" and ":)", ";)", "=)", ":-)",
    /// ";-)", "8-)": faces, not brackets.
    static func isEmoticon(text: UnsafeBufferPointer<UInt16>, at i: Int, range: Range<Int>) -> Bool {
        let u = text[i]
        guard u == 0x28 || u == 0x29 else { return false }
        func isEyes(_ v: UInt16) -> Bool { v == 0x3A || v == 0x3B || v == 0x3D }   // : ; =
        var j = i - 1
        if j >= range.lowerBound, text[j] == 0x2D { j -= 1 }                        // a nose "-"
        if j >= range.lowerBound, isEyes(text[j]) || (u == 0x29 && text[j] == 0x38 && j < i - 1) {
            return true
        }
        // "(:" and "(;" as a face looking the other way.
        return u == 0x28 && i + 1 < range.upperBound && (text[i + 1] == 0x3A || text[i + 1] == 0x3B)
    }

    /// A ")" that ends a list marker ("iii)", "2)", "b)") where a list item
    /// may start: after the paragraph's start or after white space following
    /// a terminator, ":" or ";", and before white space.
    static func isListMarkerCloser(text: UnsafeBufferPointer<UInt16>, at i: Int, range: Range<Int>) -> Bool {
        guard i + 1 < range.upperBound, CharacterClass.isWhiteSpace(text[i + 1]) else { return false }
        var j = i
        while j > range.lowerBound, i - j < 6, CharacterClass.isLetter(UInt32(text[j - 1])) || CharacterClass.isDigit(text[j - 1]) {
            j -= 1
        }
        let token = j..<i
        guard !token.isEmpty else { return false }
        let digits = token.allSatisfy { CharacterClass.isDigit(text[$0]) }
        let roman = token.allSatisfy { "ivxlcIVXLC".utf16.contains(text[$0]) }
        guard (digits && token.count <= 3) || roman || token.count == 1 else { return false }
        if j == range.lowerBound { return true }
        guard CharacterClass.isWhiteSpace(text[j - 1]) else { return false }
        var k = j - 1
        while k > range.lowerBound, CharacterClass.isWhiteSpace(text[k - 1]) { k -= 1 }
        guard k > range.lowerBound else { return true }
        let before = text[k - 1]
        return CharacterClass.terminator(before) != nil || before == 0x3A || before == 0x3B
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
