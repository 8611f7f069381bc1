// TextAnalysis.swift: width-independent segmentation: graphemes (UAX #29), break opportunities (UAX #14), paragraphs, BiDi levels (UAX #9).
import CICU
import LecternText

/// The segmentation of a text that layout needs, computed once per text.
///
/// Offsets are UTF-16 code units. Paragraphs end after LF, CR, CRLF or
/// U+2029 (the separator belongs to the paragraph it ends). The white space
/// and line ends after the text's last visible grapheme close the last
/// paragraph and open none (as ``LecternText/Paragraph`` has it): they hang
/// at the end of the last line, so a text that ends with line ends has no
/// empty line after its last one.
struct TextAnalysis {
    /// Start offset of every grapheme plus a final `text.count` sentinel.
    var graphemeStarts: [Int32] = []
    var flags: [GraphemeFlags] = []
    /// Grapheme ranges of the paragraphs, in order, covering all graphemes.
    var paragraphs: [ShapedParagraph] = []
    /// BiDi embedding level per grapheme; empty when the whole text is left-to-right.
    var levels: [UInt8] = []
    /// The first grapheme of the text's closing white space and line ends
    /// (`graphemeCount` when the text ends with a visible grapheme).
    private(set) var closingStart = 0

    var graphemeCount: Int { graphemeStarts.count - 1 }

    /// - Parameter allowFastPath: use `findSimpleGraphemes` when the text allows
    ///   it (false only in tests that compare it with ICU).
    init(text: UnsafeBufferPointer<UInt16>, iterators: BreakIteratorPool, allowFastPath: Bool = true) {
        let simple = allowFastPath && findSimpleGraphemes(text)
        if !simple {
            iterators.withIterator(LC_BREAK_CHARACTER, text: text) { findGraphemes(text, iterator: $0) }
        }
        iterators.withIterator(LC_BREAK_LINE, text: text) { findLineBreaks(text, iterator: $0) }
        classify(text)
        hangClosingWhiteSpace(text)
        findParagraphs()
        // The fast path's characters include no right-to-left character and
        // no BiDi control (`mayBeRightToLeft` is false for all of them), so
        // every level is 0 and ICU's BiDi need not be asked.
        if !simple { resolveLevels(text) }
    }

    /// UAX #29 extended grapheme clusters through ICU's character iterator.
    private mutating func findGraphemes(_ text: UnsafeBufferPointer<UInt16>, iterator: OpaquePointer?) {
        let length = Int32(text.count)
        graphemeStarts.reserveCapacity(text.count + 1)
        graphemeStarts.append(0)
        guard length > 0 else { return }
        if let iterator {
            _ = lc_break_first(iterator)
            var boundary = lc_break_next(iterator)
            while boundary != LC_BREAK_DONE {
                graphemeStarts.append(boundary)
                boundary = lc_break_next(iterator)
            }
        }
        if graphemeStarts.last != length {
            // ICU failed (out of memory): one grapheme per code unit keeps offsets valid.
            graphemeStarts = (0...length).map { $0 }
        }
    }

    /// Fast path for texts made only of characters whose Grapheme_Cluster_Break
    /// value never joins them to a neighbour here: Other, Control (GB4, GB5),
    /// and precomposed Hangul LV/LVT syllables, which join only following
    /// conjoining jamo (GB7, GB8), not in the set. Then every code unit is a
    /// grapheme except CR LF (GB3). Covers Latin, Greek, Cyrillic, kana, CJK
    /// ideographs and Hangul syllables without combining marks or emoji;
    /// anything else (surrogates, marks, ZWJ, variation selectors, jamo…)
    /// returns false and ICU decides.
    /// - Complexity: O(n), no allocation besides the result.
    private mutating func findSimpleGraphemes(_ text: UnsafeBufferPointer<UInt16>) -> Bool {
        var isSimple = true
        let starts = [Int32](unsafeUninitializedCapacity: text.count + 1) { starts, initialized in
            var count = 0
            var i = 0
            while i < text.count {
                let unit = text[i]
                guard Self.isSimpleGrapheme(unit) else {
                    isSimple = false
                    break
                }
                starts[count] = Int32(i)
                count += 1
                i += unit == 0x0D && i + 1 < text.count && text[i + 1] == 0x0A ? 2 : 1
            }
            starts[count] = Int32(text.count)
            initialized = count + 1
        }
        guard isSimple else { return false }
        graphemeStarts = starts
        return true
    }

    /// See `findSimpleGraphemes`.
    @inline(__always)
    static func isSimpleGrapheme(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x0000...0x02FF, 0x0370...0x0482, 0x048A...0x052F: return true // Latin, Greek, Cyrillic (no marks)
        case 0x2000...0x200B, 0x2010...0x2029, 0x202F...0x205F: return true // spaces, punctuation, separators
        case 0x3000...0x3029, 0x3030...0x3096, 0x309B...0x30FF: return true // CJK punctuation, kana
        case 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF9D: return true // ideographs, Hangul, fullwidth
        default: return false
        }
    }

    /// UAX #14 opportunities from ICU's line iterator. Opportunities inside a
    /// grapheme cannot be used and are dropped.
    ///
    /// Mandatory breaks (LB4, LB5) are not read from ICU's rule status: ICU
    /// gives the hard status (100) exactly to boundaries right after a BK,
    /// CR, LF or NL character, and every such character is a grapheme of its
    /// own (or CR LF) that `classify` marks as a separator, marking the
    /// grapheme after it `hardBreakBefore`. Asking ICU as well cost a call
    /// per opportunity for the same answer.
    private mutating func findLineBreaks(_ text: UnsafeBufferPointer<UInt16>, iterator: OpaquePointer?) {
        flags = [GraphemeFlags](repeating: [], count: graphemeCount)
        guard graphemeCount > 0, let iterator else { return }
        let length = Int32(text.count)
        graphemeStarts.withUnsafeBufferPointer { starts in
            flags.withUnsafeMutableBufferPointer { flags in
                _ = lc_break_first(iterator)
                var g = 0
                var boundary = lc_break_next(iterator)
                while boundary != LC_BREAK_DONE, boundary < length {
                    while starts[g] < boundary { g += 1 }
                    if starts[g] == boundary { flags[g].insert(.breakBefore) }
                    boundary = lc_break_next(iterator)
                }
            }
        }
    }

    /// Marks separators and hanging spaces by each grapheme's first code unit,
    /// and a mandatory break after each separator (see `findLineBreaks`).
    private mutating func classify(_ text: UnsafeBufferPointer<UInt16>) {
        graphemeStarts.withUnsafeBufferPointer { starts in
            flags.withUnsafeMutableBufferPointer { flags in
                for g in 0..<flags.count {
                    let separator: GraphemeFlags
                    switch text[Int(starts[g])] {
                    case 0x0A, 0x0D, 0x2029:
                        separator = .paragraphSeparator
                    case 0x0B, 0x0C, 0x85, 0x2028:
                        separator = .lineSeparator
                    case 0x20, 0x09, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000:
                        // Breaking spaces (Zs without the no-break ones U+00A0, U+2007, U+202F) and tab.
                        flags[g].insert(.hangingSpace)
                        continue
                    default:
                        continue
                    }
                    flags[g].insert(separator)
                    // A separator forces a break after it (text end excluded).
                    if g + 1 < flags.count { flags[g + 1].insert([.hardBreakBefore, .breakBefore]) }
                }
            }
        }
    }

    /// Finds the text's closing white space and line ends (graphemes made
    /// only of White_Space characters, after the last one that is not):
    /// they break no line, and all of them hang, separators included, at
    /// the end of the last line.
    /// - Complexity: O(units of the closing white space).
    private mutating func hangClosingWhiteSpace(_ text: UnsafeBufferPointer<UInt16>) {
        var g = graphemeCount
        while g > 0, text[Int(graphemeStarts[g - 1])..<Int(graphemeStarts[g])].allSatisfy(DocumentText.isWhiteSpace) {
            g -= 1
        }
        closingStart = g
        for k in g..<graphemeCount {
            if k > g { flags[k].remove([.hardBreakBefore, .breakBefore]) }
            if flags[k].isDisjoint(with: [.paragraphSeparator, .lineSeparator]) { flags[k].insert(.hangingSpace) }
        }
    }

    private mutating func findParagraphs() {
        var start = 0
        for g in 0..<closingStart where flags[g].contains(.paragraphSeparator) {
            paragraphs.append(ShapedParagraph(graphemes: start..<(g + 1), baseLevel: 0))
            start = g + 1
        }
        // The last paragraph, with the closing white space; empty only when the text is.
        paragraphs.append(ShapedParagraph(graphemes: start..<graphemeCount, baseLevel: 0))
    }

    /// UAX #9 levels through ICU, only for paragraphs that contain a
    /// right-to-left character or a BiDi control (the rest stay level 0).
    private mutating func resolveLevels(_ text: UnsafeBufferPointer<UInt16>) {
        for p in paragraphs.indices {
            let range = paragraphs[p].graphemes
            guard !range.isEmpty else { continue }
            let start = Int(graphemeStarts[range.lowerBound])
            let end = Int(graphemeStarts[range.upperBound])
            guard (start..<end).contains(where: { Self.mayBeRightToLeft(text[$0]) }) else { continue }
            var error: Int32 = 0
            guard let base = text.baseAddress,
                  let bidi = lc_bidi_open(base + start, Int32(end - start), UInt8(LC_BIDI_DEFAULT_LTR), &error)
            else { continue }
            defer { lc_bidi_close(bidi) }
            if levels.isEmpty { levels = [UInt8](repeating: 0, count: graphemeCount) }
            paragraphs[p].baseLevel = lc_bidi_paragraph_level(bidi)
            for g in range {
                levels[g] = lc_bidi_level_at(bidi, graphemeStarts[g] - Int32(start))
            }
        }
    }

    /// True for code units of right-to-left scripts (Hebrew, Arabic, Syriac,
    /// Thaana, NKo, …, their presentation forms, and the supplementary RTL
    /// planes via high surrogates) and for explicit BiDi controls.
    static func mayBeRightToLeft(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF: return true
        case 0x200F, 0x202B, 0x202E, 0x2067, 0x061C: return true
        case 0xD802, 0xD803, 0xD83A, 0xD83B: return true // U+10800–U+10FFF, U+1E800–U+1EFFF
        default: return false
        }
    }
}
