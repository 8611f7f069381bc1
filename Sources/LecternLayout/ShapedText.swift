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
    /// The fonts a layout of this text depends on, as VIEW names them
    /// (`fonts=`): every font that draws a grapheme (separators excluded),
    /// most graphemes first, ties in order of first use; then the primary
    /// font when it draws none, since its ascent, descent and line gap set
    /// every line's least height (an all-Korean text in "DejaVu Sans" is
    /// drawn in NanumGothic, with DejaVu Sans's metrics).
    public let fontUsage: [FontUsage]
    /// For each of ``fonts``, its index in ``fontUsage`` (nil for a font that
    /// draws nothing and is not the primary: one only separators went to).
    public let usageIndex: [Int?]

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
        (fontUsage, usageIndex) = Self.usage(of: fonts, runs: runs, flags: analysis.flags)
    }

    /// ``fontUsage`` and ``usageIndex``.
    /// - Complexity: O(graphemes + fonts log fonts).
    private static func usage(of fonts: [Font], runs: [ShapedRun], flags: [GraphemeFlags]) -> ([FontUsage], [Int?]) {
        var counts = [Int](repeating: 0, count: fonts.count)
        var firstUse = [Int](repeating: Int.max, count: fonts.count)
        for run in runs where fonts.indices.contains(run.fontIndex) {
            var drawn = 0
            for g in run.graphemes where flags[g].isDisjoint(with: [.paragraphSeparator, .lineSeparator]) { drawn += 1 }
            guard drawn > 0 else { continue }
            counts[run.fontIndex] += drawn
            firstUse[run.fontIndex] = min(firstUse[run.fontIndex], run.graphemes.lowerBound)
        }
        let drawing = fonts.indices.filter { counts[$0] > 0 }
            .sorted { (counts[$1], firstUse[$0]) < (counts[$0], firstUse[$1]) }
        var order = drawing
        if !fonts.isEmpty, counts[0] == 0 { order.append(0) }
        var index = [Int?](repeating: nil, count: fonts.count)
        for (position, font) in order.enumerated() { index[font] = position }
        let usage = order.map { FontUsage(font: fonts[$0], graphemes: counts[$0], isPrimary: $0 == 0) }
        return (usage, index)
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
        return graphemeStarts.prefix(graphemeCount).lastIndex(whereKeyIsAtMost: Int32(offset)) { $0 }
    }

    /// The offset rounded down to a grapheme boundary (clamped to the text).
    /// - Complexity: O(log graphemes).
    public func graphemeBoundary(atOrBefore offset: Int) -> Int {
        Int(graphemeStarts[graphemeIndex(containing: offset)])
    }

    /// Index of the run containing grapheme `index`.
    /// - Complexity: O(log runs).
    func runIndex(containingGrapheme index: Int) -> Int {
        runs.lastIndex(whereKeyIsAtMost: index) { $0.graphemes.lowerBound }
    }

    /// BiDi level of grapheme `index` (0 when the text is all left-to-right).
    func level(ofGrapheme index: Int) -> UInt8 { levels.isEmpty ? 0 : levels[index] }
}

/// One font of a shaped text and how much of it it draws (``ShapedText/fontUsage``).
public struct FontUsage: Sendable {
    /// The face: family, file and face index are what a client loads to draw the same glyphs.
    public let font: Font
    /// Graphemes shaped with it (line and paragraph separators not counted).
    public let graphemes: Int
    /// True for the font the spec resolved to (``FontResolution/primary``).
    public let isPrimary: Bool
}
