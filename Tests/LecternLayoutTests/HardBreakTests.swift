import CICU
import LecternRandom
import Testing
@testable import LecternLayout

@Suite struct HardBreakTests {
    /// Mandatory breaks are derived from separators, not read from ICU's
    /// rule status (see `TextAnalysis.findLineBreaks`): on random texts rich
    /// in separators, combining marks, joiners and spaces, every grapheme's
    /// `hardBreakBefore` must equal ICU's hard status (100..<200) there,
    /// except among the text's closing white space and line ends, which
    /// break no line (see `TextAnalysis.hangClosingWhiteSpace`).
    @Test func separatorsGiveExactlyICUsMandatoryBreaks() {
        let pool: [UInt16] = [
            0x0A, 0x0D, 0x2029, 0x0B, 0x0C, 0x85, 0x2028, 0x20, 0x41, 0x301, 0x200D, 0x3000, 0xAC00, 0x2E,
            0x28, 0x22, 0x09, 0x200B, 0xA0, 0x2060, 0x1100, 0x30A2, 0x3001, 0xFE0F, 0x0644,
        ]
        var generator = SplitMix64(seed: 14)
        var error: Int32 = 0
        guard let iterator = lc_break_open(LC_BREAK_LINE, "", nil, 0, &error) else {
            Issue.record("ICU line iterator unavailable")
            return
        }
        defer { lc_break_close(iterator) }
        let iterators = BreakIteratorPool()
        var mismatches = 0
        var hardBreaks = 0
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 1...24, using: &generator)).map { _ in
                pool.randomElement(using: &generator) ?? 0x41
            }
            text.withUnsafeBufferPointer { buffer in
                let analysis = TextAnalysis(text: buffer, iterators: iterators)
                _ = lc_break_set_text(iterator, buffer.baseAddress, Int32(buffer.count))
                var icuHard = Set<Int32>()
                _ = lc_break_first(iterator)
                var boundary = lc_break_next(iterator)
                while boundary != LC_BREAK_DONE {
                    let status = lc_break_rule_status(iterator)
                    if status >= LC_LINE_BREAK_HARD_MIN, status < LC_LINE_BREAK_HARD_LIMIT { icuHard.insert(boundary) }
                    boundary = lc_break_next(iterator)
                }
                _ = lc_break_set_text(iterator, nil, 0)
                for g in 1..<max(1, analysis.graphemeCount) {
                    let ours = analysis.flags[g].contains(.hardBreakBefore)
                    if g > analysis.closingStart {
                        if ours { mismatches += 1 }
                        continue
                    }
                    if ours { hardBreaks += 1 }
                    if ours != icuHard.contains(analysis.graphemeStarts[g]) { mismatches += 1 }
                }
            }
        }
        #expect(hardBreaks > 1_000)
        #expect(mismatches == 0)
    }
}
