// TextLayout+Selection.swift: highlight rects per line fragment, outlines, and carets.

extension TextLayout {
    /// Width of a caret rect, in points.
    public static let caretWidth = 1.0
    /// Width of the highlight shown for an empty line inside a range, in em.
    public static let emptyLineMarkerWidth = 0.3

    /// The highlight of a UTF-16 range: one rect per line fragment it touches
    /// (several on a BiDi line when the range is split visually), left to right
    /// within a line, lines top to bottom.
    ///
    /// - The range is widened to whole graphemes and clamped to the text.
    /// - Hanging spaces and separators at a line's end are excluded; an
    ///   empty line inside the range gets a narrow marker rect.
    /// - Rects tile vertically without gaps: a fragment that continues on the
    ///   next line extends down to that line's top (over paragraph spacing).
    /// - An attachment belongs to the text before it (`a < offset <= b`).
    /// - Complexity: O(log lines + graphemes in the range) (BiDi lines add a sort).
    public func selectionRects(for range: Range<Int>) -> [Rect] {
        var rects: [Rect] = []
        selectionRects(for: range) { rect, _ in rects.append(rect) }
        return rects
    }

    /// Allocation-free variant: calls `body` with each rect and its line index.
    public func selectionRects(for range: Range<Int>, _ body: (Rect, Int) -> Void) {
        let start = max(0, min(range.lowerBound, shaped.utf16Count))
        let end = max(0, min(range.upperBound, shaped.utf16Count))
        guard start < end else { return }
        let firstGrapheme = shaped.graphemeIndex(containing: start)
        let endGrapheme = shaped.graphemeIndex(containing: end - 1) + 1
        var index = lineIndex(containing: start)
        while index < lines.count, touches(lines[index], end: end) {
            let line = lines[index]
            let continues = index + 1 < lines.count && lines[index + 1].textRange.lowerBound < end
            let bottom = continues ? lines[index + 1].top : line.bottom
            let fragmentStart = max(firstGrapheme, line.graphemes.lowerBound)
            let fragment = fragmentStart..<max(fragmentStart, min(endGrapheme, line.contentEnd))
            let emitted = emitFragments(
                line: line, index: index, graphemes: fragment, start: start, end: end, bottom: bottom, body)
            if !emitted, line.contentEnd == line.graphemes.lowerBound, line.attachments.isEmpty {
                let width = Self.emptyLineMarkerWidth * fontSize
                let x = line.isRightToLeft ? line.x - width : line.x
                body(Rect(x: x, y: line.top, width: width, height: bottom - line.top), index)
            }
            index += 1
        }
    }

    /// Emits the rects of one line's fragment; returns false when it has none.
    private func emitFragments(
        line: LayoutLine, index: Int, graphemes: Range<Int>, start: Int, end: Int, bottom: Double,
        _ body: (Rect, Int) -> Void
    ) -> Bool {
        var spans: [(minX: Double, maxX: Double)] = []
        for a in line.attachments where attachmentBelongs(a, toRangeFrom: start, to: end) {
            spans.append((attachmentFrames[a].minX, attachmentFrames[a].maxX))
        }
        if visualGraphemes[index] == nil {
            if let first = graphemes.first, let last = graphemes.last {
                spans.append((graphemeX[first], graphemeX[last] + graphemeWidth(last)))
            }
        } else {
            for g in graphemes { spans.append((graphemeX[g], graphemeX[g] + graphemeWidth(g))) }
        }
        guard !spans.isEmpty else { return false }
        spans.sort { $0.minX < $1.minX }
        var current = spans[0]
        for span in spans.dropFirst() {
            if span.minX <= current.maxX + 1e-9 {
                current.maxX = max(current.maxX, span.maxX)
            } else {
                body(Rect(x: current.minX, y: line.top, width: current.maxX - current.minX, height: bottom - line.top), index)
                current = span
            }
        }
        body(Rect(x: current.minX, y: line.top, width: current.maxX - current.minX, height: bottom - line.top), index)
        return true
    }

    /// Whether a line at or after the range's first line still meets a range
    /// ending at `end`: it starts before it, or it is an attachment-only line
    /// at exactly `end` (attachments belong to the text before them).
    private func touches(_ line: LayoutLine, end: Int) -> Bool {
        line.textRange.lowerBound < end
            || (line.textRange.isEmpty && line.textRange.lowerBound == end && !line.attachments.isEmpty)
    }

    private func attachmentBelongs(_ index: Int, toRangeFrom start: Int, to end: Int) -> Bool {
        let offset = attachments[index].offset
        return (start < offset && offset <= end) || (offset == 0 && start == 0)
    }

    /// The outline of a range's highlight: closed polygons (clockwise on
    /// screen, first point not repeated) tracing the union of
    /// `selectionRects(for:)`. One polygon for a contiguous multi-line
    /// sentence; two when its first and last lines do not overlap horizontally.
    /// - Complexity: O(rects) for ordinary ranges, O(rects²) for BiDi-split ones.
    public func outline(for range: Range<Int>) -> [[Point]] {
        RectUnion.outline(of: selectionRects(for: range))
    }

    /// The caret at a UTF-16 offset (rounded down to a grapheme boundary,
    /// clamped to the text): a `caretWidth`-wide rect, the height of the line
    /// box, centred on the caret's x. An offset where a line wraps is drawn
    /// at the start of the next line; an offset with attachments is drawn before them.
    /// - Complexity: O(log lines + log graphemes).
    public func caretRect(at offset: Int) -> Rect {
        let x = caretX(at: offset)
        let line = lines[lineIndex(containing: shaped.graphemeBoundary(atOrBefore: offset))]
        return Rect(x: x - Self.caretWidth / 2, y: line.top, width: Self.caretWidth, height: line.height)
    }

    /// The x of the caret at `offset` (see `caretRect(at:)`).
    public func caretX(at offset: Int) -> Double {
        let boundary = shaped.graphemeBoundary(atOrBefore: offset)
        let line = lines[lineIndex(containing: boundary)]
        let g = shaped.graphemeIndex(containing: boundary)
        if let a = line.attachments.first(where: { attachments[$0].offset == boundary }) {
            return line.isRightToLeft ? attachmentFrames[a].maxX : attachmentFrames[a].minX
        }
        if line.graphemes.contains(g) { return leadingEdge(ofGrapheme: g, on: line) }
        return endEdge(of: line)
    }
}
