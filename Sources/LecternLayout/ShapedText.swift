// ShapedText.swift: the shaping result of a text in one font spec, size-independent, shared by every view.

/// A text shaped once for a `FontSpec`: its graphemes, their advances in em,
/// their line-break facts, paragraphs, BiDi levels and fonts.
///
/// Advances are in em (design units / units per em), so one `ShapedText`
/// serves every font size, width, line height and inset: a view multiplies
/// by its size and re-runs only line breaking (`TextLayout`). This is the
/// "shape once, break many" cache entry a document keeps per font spec.
///
/// Each grapheme's advance is the sum of its glyphs' advances; a ligature
/// spanning several graphemes shares its advance evenly among them, so
/// every grapheme boundary has an x position (as Pango does for carets).
///
/// Immutable and `Sendable`: build it on a worker thread, use it on the loop.
public final class ShapedText: Sendable {
    /// The text, in UTF-16 code units (the canonical offsets).
    public let text: [UInt16]
    /// The font spec, what it resolved to, and whether the family was a substitute.
    public let resolution: FontResolution
    /// Every font used, primary first.
    public let fonts: [Font]
    /// Shaping runs in logical order, covering all graphemes.
    public let runs: [ShapedRun]
    /// Paragraphs in order; there is always at least one (possibly empty).
    public let paragraphs: [ShapedParagraph]

    let graphemeStarts: [Int32]
    let advances: [Float]
    let flags: [GraphemeFlags]
    /// Per-grapheme BiDi levels; empty when everything is left-to-right.
    let levels: [UInt8]

    init(
        text: [UInt16], resolution: FontResolution, fonts: [Font], runs: [ShapedRun],
        analysis: TextAnalysis, advances: [Float]
    ) {
        self.text = text
        self.resolution = resolution
        self.fonts = fonts
        self.runs = runs
        self.paragraphs = analysis.paragraphs
        self.graphemeStarts = analysis.graphemeStarts
        self.flags = analysis.flags
        self.levels = analysis.levels
        self.advances = advances
    }

    /// Number of UTF-16 code units.
    public var utf16Count: Int { text.count }
    /// Number of extended grapheme clusters.
    public var graphemeCount: Int { graphemeStarts.count - 1 }
    /// True when some paragraph needs BiDi reordering.
    public var hasBidi: Bool { !levels.isEmpty }

    /// UTF-16 range of grapheme `index` (0..<graphemeCount).
    public func graphemeRange(_ index: Int) -> Range<Int> {
        Int(graphemeStarts[index])..<Int(graphemeStarts[index + 1])
    }

    /// Advance of grapheme `index` in em (multiply by the font size for points).
    public func advance(ofGrapheme index: Int) -> Double { Double(advances[index]) }

    /// Index of the grapheme containing UTF-16 `offset`; `graphemeCount` for
    /// offsets at or past the end, 0 for negative offsets.
    /// - Complexity: O(log graphemes).
    public func graphemeIndex(containing offset: Int) -> Int {
        if offset <= 0 { return 0 }
        if offset >= text.count { return graphemeCount }
        var low = 0
        var high = graphemeCount // invariant: starts[low] <= offset < starts[high]
        let target = Int32(offset)
        while high - low > 1 {
            let mid = (low + high) / 2
            if graphemeStarts[mid] <= target { low = mid } else { high = mid }
        }
        return low
    }

    /// The offset rounded down to a grapheme boundary (clamped to the text).
    /// - Complexity: O(log graphemes).
    public func graphemeBoundary(atOrBefore offset: Int) -> Int {
        Int(graphemeStarts[graphemeIndex(containing: offset)])
    }

    /// Index of the run containing grapheme `index`.
    /// - Complexity: O(log runs).
    func runIndex(containingGrapheme index: Int) -> Int {
        var low = 0
        var high = runs.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if runs[mid].graphemes.lowerBound <= index { low = mid } else { high = mid }
        }
        return low
    }

    /// BiDi level of grapheme `index` (0 when the text is all left-to-right).
    func level(ofGrapheme index: Int) -> UInt8 { levels.isEmpty ? 0 : levels[index] }
}
