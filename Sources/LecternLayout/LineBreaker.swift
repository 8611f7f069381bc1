// LineBreaker.swift: greedy line breaking over UAX #14 opportunities, with hanging spaces and grapheme fallback.

/// Where one line starts and ends, before it is positioned.
struct BrokenLine {
    var graphemes: Range<Int>
    var attachments: Range<Int>
    var contentEnd: Int
    var contentWidth: Double
    var paragraph: Int
    var endsParagraph: Bool
}

/// Greedy line breaking, as reader apps wrap: each line takes as many
/// break-opportunity segments as fit in the width.
///
/// - Opportunities are UAX #14's (ICU line iterator, computed at shaping);
///   mandatory breaks (LB4, LB5: after LF, CR, NEL, U+2028, U+2029) end a line.
/// - Spaces before an opportunity hang past the edge (CSS Text 3 § 4.1.3,
///   `white-space: normal`): they never make a line overflow or count in its width.
/// - A segment wider than the line is broken at grapheme boundaries
///   (CSS `overflow-wrap: anywhere`); a single grapheme or attachment wider
///   than the line stays whole on its own line.
/// - Attachments are items at their offset, before the grapheme there: glued
///   to the preceding text unless the text allows a break at that offset.
///
/// - Complexity: O(graphemes + attachments); no allocation besides the result.
struct LineBreaker {
    let shaped: ShapedText
    let attachments: [InlineAttachment]
    let fontSize: Double
    let maxWidth: Double

    /// Tolerance for widths that equal the line width up to rounding.
    static let epsilon = 1e-9

    func breakLines() -> [BrokenLine] {
        var lines: [BrokenLine] = []
        lines.reserveCapacity(shaped.graphemeCount / 16 + shaped.paragraphs.count)
        var attachment = 0
        shaped.graphemeStarts.withUnsafeBufferPointer { starts in
            shaped.advances.withUnsafeBufferPointer { advances in
                shaped.flags.withUnsafeBufferPointer { flags in
                    let context = Context(starts: starts, advances: advances, flags: flags)
                    for (index, paragraph) in shaped.paragraphs.enumerated() {
                        let isLast = index == shaped.paragraphs.count - 1
                        breakParagraph(
                            index, paragraph.graphemes, isLast: isLast, context: context,
                            attachment: &attachment, into: &lines)
                    }
                }
            }
        }
        return lines
    }

    private struct Context {
        let starts: UnsafeBufferPointer<Int32>
        let advances: UnsafeBufferPointer<Float>
        let flags: UnsafeBufferPointer<GraphemeFlags>
    }

    /// Breaks one paragraph. Attachments whose offset is the paragraph's end
    /// belong to the next paragraph, except at the end of the text.
    private func breakParagraph(
        _ paragraph: Int, _ graphemes: Range<Int>, isLast: Bool, context: Context,
        attachment: inout Int, into lines: inout [BrokenLine]
    ) {
        let end = graphemes.upperBound
        let size = fontSize
        let limit = maxWidth + Self.epsilon
        var g = graphemes.lowerBound
        repeat {
            let lineStart = g
            let lineAttachment = attachment
            var width = 0.0 // content so far, interior spaces included
            var pending = 0.0 // spaces that would hang if the line ended here
            var breakAt: (grapheme: Int, attachment: Int, width: Double, contentEnd: Int)?
            // After the last grapheme that is neither a hanging space nor a
            // separator, or the position of the last attachment if later.
            var contentEnd = g
            /// Places an item `itemWidth` wide after the pending spaces, unless
            /// it overflows a line that already holds something: then the line
            /// goes back to its last break opportunity (if any), and false.
            func place(_ itemWidth: Double) -> Bool {
                let isFirstItem = g == lineStart && attachment == lineAttachment
                if !isFirstItem, width + pending + itemWidth > limit {
                    if let found = breakAt { (g, attachment, width, contentEnd) = found }
                    return false
                }
                width += pending + itemWidth
                pending = 0
                return true
            }
            scan: while true {
                let atEnd = g == end
                let flags = atEnd ? [] : context.flags[g]
                if !atEnd, g != lineStart || attachment != lineAttachment {
                    if flags.contains(.hardBreakBefore) { break scan }
                    if flags.contains(.breakBefore) { breakAt = (g, attachment, width, contentEnd) }
                }
                // Attachments at this position (at a paragraph's end only for the text's end).
                while attachment < attachments.count,
                      atEnd ? isLast : attachments[attachment].offset <= Int(context.starts[g]) {
                    guard place(attachments[attachment].width) else { break scan }
                    attachment += 1
                    contentEnd = g
                }
                if atEnd { break scan }
                let advance = Double(context.advances[g]) * size
                if !flags.isDisjoint(with: .trailing) {
                    pending += advance
                    g += 1
                    continue
                }
                guard place(advance) else { break scan }
                g += 1
                contentEnd = g
            }
            lines.append(BrokenLine(
                graphemes: lineStart..<g, attachments: lineAttachment..<attachment, contentEnd: contentEnd,
                contentWidth: width, paragraph: paragraph, endsParagraph: g == end))
        } while g < end || (isLast && attachment < attachments.count)
    }
}
