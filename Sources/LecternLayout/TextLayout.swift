// TextLayout.swift: the line table of one view: lines, their metrics, and the x of every grapheme.

/// The line table of one view: a `ShapedText` broken into lines for a
/// `LayoutSpec`, with every line's text range, top, baseline, height and
/// width, and the x position of every grapheme.
///
/// Building one runs only line breaking and positioning — never shaping —
/// so a width change costs O(graphemes) with small constants:
/// ```swift
/// let shaped = shaper.shape(text, spec: FontSpec(family: "DejaVu Sans"))
/// let narrow = TextLayout(shaped: shaped, spec: LayoutSpec(width: 200, fontSize: 17))
/// let wide = TextLayout(shaped: shaped, spec: LayoutSpec(width: 320, fontSize: 17))
/// let hit = wide.hitTest(x: 40, y: 12)
/// ```
///
/// Immutable once built and `Sendable` (a class, so that views sharing a
/// spec share one table and queries never copy it): build it on any thread,
/// query it from the loop thread.
///
/// - Complexity: init is O(graphemes + attachments); queries are logarithmic
///   (see each method).
public final class TextLayout: Sendable {
    public let shaped: ShapedText
    public let spec: LayoutSpec
    /// The attachments, sorted by offset (stable), offsets clamped to the
    /// text and rounded down to grapheme boundaries.
    public let attachments: [InlineAttachment]
    /// Frame of each attachment, same order as `attachments`.
    public let attachmentFrames: [Rect]
    /// Lines in order, top to bottom; at least one (an empty text has one empty line).
    public let lines: [LayoutLine]
    /// Total height including insets.
    public let height: Double

    /// Left edge of every grapheme, in view coordinates.
    let graphemeX: [Double]
    /// `lines[i].top`, contiguous, for cache-friendly binary search.
    let lineTops: [Double]
    /// Grapheme index each attachment stands before (`graphemeCount` at the end).
    let attachmentGraphemes: [Int]
    /// For lines that need BiDi reordering (by line index): their graphemes
    /// in visual order, left to right.
    let visualGraphemes: [Int: [Int]]
    /// The font size actually used (clamped).
    public let fontSize: Double

    /// Breaks `shaped` into lines for `spec` and positions them.
    /// - Parameter attachments: inline boxes; any order, any offsets (clamped).
    /// - Complexity: O(graphemes + attachments log attachments).
    public init(shaped: ShapedText, spec: LayoutSpec, attachments: [InlineAttachment] = []) {
        self.shaped = shaped
        self.spec = spec
        fontSize = spec.effectiveFontSize
        let normalized = attachments.map { attachment -> InlineAttachment in
            var copy = attachment
            copy.offset = shaped.graphemeBoundary(atOrBefore: attachment.offset)
            copy.width = Self.sanitized(copy.width)
            copy.height = Self.sanitized(copy.height)
            copy.baselineOffset = copy.baselineOffset.isFinite ? copy.baselineOffset : 0
            return copy
        }
        let sorted = normalized.enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        self.attachments = sorted
        attachmentGraphemes = sorted.map { shaped.graphemeIndex(containing: $0.offset) }
        let broken = LineBreaker(
            shaped: shaped, attachments: sorted, fontSize: fontSize, maxWidth: spec.lineWidth
        ).breakLines()
        var positioner = LinePositioner(
            shaped: shaped, spec: spec, fontSize: fontSize, attachments: sorted,
            attachmentGraphemes: attachmentGraphemes)
        for line in broken { positioner.place(line) }
        lines = positioner.lines
        lineTops = positioner.lines.map(\.top)
        graphemeX = positioner.graphemeX
        attachmentFrames = positioner.attachmentFrames
        visualGraphemes = positioner.visualGraphemes
        height = (positioner.lines.last?.bottom ?? spec.insets.top) + spec.insets.bottom
    }

    private static func sanitized(_ value: Double) -> Double {
        value.isFinite ? max(0, value) : 0
    }

    /// Width of grapheme `index` in points.
    @inline(__always)
    func graphemeWidth(_ index: Int) -> Double {
        Double(shaped.advances[index]) * fontSize
    }

    /// The x positions of the grapheme boundaries of line `index`, in logical
    /// order: the leading edge of each grapheme, then the line's end. This is
    /// what a client needs to draw the same carets; for right-to-left
    /// graphemes the leading edge is the right one.
    /// - Complexity: O(graphemes on the line).
    public func graphemeBoundaryPositions(line index: Int) -> [Double] {
        guard lines.indices.contains(index) else { return [] }
        let line = lines[index]
        var positions = line.graphemes.map { leadingEdge(ofGrapheme: $0, on: line) }
        positions.append(endEdge(of: line))
        return positions
    }

    /// Index of the line containing UTF-16 `offset`; an offset at a line's
    /// start belongs to that line (downstream affinity), the text's end to the last line.
    /// - Complexity: O(log lines).
    public func lineIndex(containing offset: Int) -> Int {
        var low = lines.lastIndex(whereKeyIsAtMost: offset) { $0.textRange.lowerBound }
        // Attachment-only lines share their start with the next line: an
        // offset exactly there belongs to the first of them (carets sit before attachments).
        while low > 0, lines[low].textRange.lowerBound == offset, lines[low - 1].textRange.isEmpty,
              lines[low - 1].textRange.lowerBound == offset { low -= 1 }
        return low
    }

    /// Index of the line whose box contains `y`; above the first line gives
    /// 0, below the last gives the last.
    /// - Complexity: O(log lines).
    public func lineIndex(atY y: Double) -> Int {
        lineTops.withUnsafeBufferPointer { tops in
            // Lines are usually of equal height: try the interpolated guess first.
            let span = height - tops[0]
            if tops.count > 1, span > 0, y >= tops[0], y < height {
                let guess = min(tops.count - 1, Int((y - tops[0]) / span * Double(tops.count)))
                if tops[guess] <= y, guess + 1 == tops.count || y < tops[guess + 1] { return guess }
            }
            return Self.lastIndex(atOrBefore: y, in: tops) ?? 0
        }
    }

    /// Index of the last element `<= value` in ascending `values`, or nil.
    /// Branch-free binary search (the comparison compiles to a conditional move).
    /// - Complexity: O(log n).
    @inline(__always)
    static func lastIndex(atOrBefore value: Double, in values: UnsafeBufferPointer<Double>) -> Int? {
        guard let first = values.first, first <= value else { return nil }
        var base = 0
        var count = values.count
        while count > 1 {
            let half = count / 2
            base = values[base + half] <= value ? base + half : base
            count -= half
        }
        return base
    }

    /// ``lastIndex(atOrBefore:in:)`` starting from a guess: steps from
    /// `guess` to the answer when it is within a few elements, which reads
    /// one or two cache lines where a binary search reads one per step (on
    /// a tap, the line's positions are seldom in the cache, and each step
    /// waits for the last), and falls back to the binary search otherwise.
    @inline(__always)
    static func lastIndex(atOrBefore value: Double, in values: UnsafeBufferPointer<Double>, near guess: Int) -> Int? {
        guard let elements = values.baseAddress, values.count > 0, elements[0] <= value else { return nil }
        let last = values.count - 1
        var index = Swift.min(Swift.max(guess, 0), last)
        let maximumSteps = 4
        if elements[index] <= value {
            for _ in 0..<maximumSteps {
                guard index < last, elements[index + 1] <= value else { return index }
                index += 1
            }
            // Still at or before the answer: search from here.
            return index + (lastIndex(atOrBefore: value, in: UnsafeBufferPointer(rebasing: values[index...])) ?? 0)
        }
        for _ in 0..<maximumSteps {
            index -= 1  // elements[0] <= value, so this stops at 0 at the latest
            if elements[index] <= value { return index }
        }
        return lastIndex(atOrBefore: value, in: UnsafeBufferPointer(rebasing: values[..<index]))
    }

    /// Whether grapheme `index` of `line` runs right-to-left on screen. Hanging
    /// spaces and separators take the paragraph's direction (UAX #9 L1).
    func isRightToLeft(grapheme index: Int, on line: LayoutLine) -> Bool {
        guard !shaped.levels.isEmpty else { return false }
        return index >= line.contentEnd ? line.isRightToLeft : shaped.levels[index] & 1 == 1
    }

    /// Where a caret before grapheme `index` of `line` is drawn.
    func leadingEdge(ofGrapheme index: Int, on line: LayoutLine) -> Double {
        isRightToLeft(grapheme: index, on: line) ? graphemeX[index] + graphemeWidth(index) : graphemeX[index]
    }

    /// Where a caret after the line's last grapheme (or attachment) is drawn.
    func endEdge(of line: LayoutLine) -> Double {
        if let last = line.graphemes.last {
            if !line.attachments.isEmpty, attachmentGraphemes[line.attachments.upperBound - 1] > last {
                let frame = attachmentFrames[line.attachments.upperBound - 1]
                return line.isRightToLeft ? frame.minX : frame.maxX
            }
            return isRightToLeft(grapheme: last, on: line) ? graphemeX[last] : graphemeX[last] + graphemeWidth(last)
        }
        if let lastAttachment = line.attachments.last {
            let frame = attachmentFrames[lastAttachment]
            return line.isRightToLeft ? frame.minX : frame.maxX
        }
        return line.isRightToLeft ? line.x + line.width : line.x
    }
}
