// TextLayout+Glyphs.swift: the glyphs a view draws: each run shaped again, its glyphs placed at the layout's grapheme positions.
import CHarfBuzz

/// One glyph as a view draws it.
public struct PlacedGlyph: Hashable, Sendable {
    /// Index into `ShapedText.fonts`.
    public var fontIndex: Int
    /// Glyph id in that font (what HarfBuzz's shaping gave).
    public var glyph: UInt32
    /// The glyph's origin in view coordinates: x on the pen line, y on the
    /// line's baseline (both moved by the glyph's HarfBuzz offset, e.g. a mark's).
    public var x: Double
    public var y: Double
    /// UTF-16 offset of the cluster the glyph draws (its first code unit).
    public var cluster: Int
}

extension TextLayout {
    /// Calls `body` with every glyph the view draws, run by run in logical
    /// order and, within a run, in HarfBuzz's (visual) order.
    ///
    /// Shaping keeps only each grapheme's advance, not its glyphs, so each
    /// run is shaped again here by the very call that shaped it
    /// (``ShapingSession/shape(_:units:font:text:paragraph:buffer:)``: same
    /// font, script, direction, paragraph context): the glyph ids are
    /// exactly the shaped ones (Arabic joining forms, Indic conjuncts,
    /// ligatures), never a per-character mapping. Each HarfBuzz cluster is
    /// drawn from the left edge of its graphemes on their line, its glyphs
    /// advancing by their own advances, which add up to the graphemes'
    /// widths, so the glyphs fill exactly the boxes that hit-testing,
    /// carets and highlights use, BiDi reordering included.
    ///
    /// Not drawn: hanging spaces, line and paragraph separators, and
    /// graphemes starting with a control character (their glyphs would be
    /// `.notdef` boxes in most fonts). A ligature split by a line break is
    /// drawn on the line of its first grapheme.
    ///
    /// - Complexity: O(glyphs × log graphemes) plus HarfBuzz's shaping of
    ///   the whole text; allocation-free apart from one HarfBuzz buffer.
    public func forEachGlyph(_ body: (PlacedGlyph) -> Void) {
        guard !shaped.runs.isEmpty, let buffer = hb_buffer_create() else { return }
        defer { hb_buffer_destroy(buffer) }
        var paragraphIndex = 0
        var lineIndex = 0
        shaped.text.withUnsafeBufferPointer { text in
            for run in shaped.runs where !run.graphemes.isEmpty {
                while paragraphIndex + 1 < shaped.paragraphs.count,
                      shaped.paragraphs[paragraphIndex].graphemes.upperBound <= run.graphemes.lowerBound {
                    paragraphIndex += 1
                }
                let paragraphGraphemes = shaped.paragraphs[paragraphIndex].graphemes
                let paragraph = Int(shaped.graphemeStarts[paragraphGraphemes.lowerBound])
                    ..< Int(shaped.graphemeStarts[paragraphGraphemes.upperBound])
                let units = Int(shaped.graphemeStarts[run.graphemes.lowerBound])
                    ..< Int(shaped.graphemeStarts[run.graphemes.upperBound])
                guard run.fontIndex < shaped.fonts.count else { continue }
                let font = shaped.fonts[run.fontIndex]
                ShapingSession.shape(run, units: units, font: font, text: text, paragraph: paragraph, buffer: buffer)
                var count: UInt32 = 0
                guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                      let positions = hb_buffer_get_glyph_positions(buffer, &count) else { continue }
                let glyphCount = Int(count)
                let scale = fontSize / Double(font.unitsPerEm)
                let isRightToLeft = run.level & 1 == 1
                func cluster(_ i: Int) -> Int { paragraph.lowerBound + Int(infos[i].cluster) }
                // Glyphs are taken a grapheme at a time: HarfBuzz's clusters
                // can be finer than the graphemes (स् and ते in the grapheme
                // स्ते) or coarser (a ligature over several graphemes).
                var i = 0
                var first = run.graphemes.lowerBound
                while i < glyphCount {
                    let start = cluster(i)
                    first = graphemeIndex(containing: start, near: first)
                    var j = i + 1
                    while j < glyphCount, graphemeIndex(containing: cluster(j), near: first) == first { j += 1 }
                    defer { i = j }
                    guard units.contains(start) else { continue }
                    // Clusters are monotone (HarfBuzz's default cluster level):
                    // the next one in logical order follows in LTR output, precedes in RTL.
                    let next = isRightToLeft ? (i > 0 ? cluster(i - 1) : units.upperBound)
                        : (j < glyphCount ? cluster(j) : units.upperBound)
                    let last = max(first + 1, graphemeIndex(containing: next, near: first))
                    if !lines[lineIndex].graphemes.contains(first) { lineIndex = self.lineIndex(ofGrapheme: first) }
                    let line = lines[lineIndex]
                    guard first < line.contentEnd, isDrawn(grapheme: first) else { continue }
                    var left = graphemeX[first]
                    if last - first > 1 {
                        for g in (first + 1)..<min(last, line.contentEnd) { left = min(left, graphemeX[g]) }
                    }
                    var pen = left
                    for k in i..<j {
                        let position = positions[k]
                        body(PlacedGlyph(
                            fontIndex: run.fontIndex, glyph: infos[k].codepoint,
                            x: pen + Double(position.x_offset) * scale,
                            y: line.baseline - Double(position.y_offset) * scale, cluster: cluster(k)))
                        pen += Double(position.x_advance) * scale
                    }
                }
            }
        }
    }

    /// ``ShapedText/graphemeIndex(containing:)`` starting from a guess:
    /// consecutive glyphs are in the same grapheme or a neighbour, so most
    /// answers take one or two comparisons instead of a binary search.
    private func graphemeIndex(containing offset: Int, near guess: Int) -> Int {
        let starts = shaped.graphemeStarts
        if guess >= 0, guess + 1 < starts.count, Int(starts[guess]) <= offset {
            if offset < Int(starts[guess + 1]) { return guess }
            if guess + 2 < starts.count, offset < Int(starts[guess + 2]) { return guess + 1 }
        } else if guess >= 1, guess < starts.count, Int(starts[guess - 1]) <= offset, offset < Int(starts[guess]) {
            return guess - 1
        }
        return shaped.graphemeIndex(containing: offset)
    }

    /// Every glyph ``forEachGlyph(_:)`` visits, in its order.
    /// - Complexity: as ``forEachGlyph(_:)``, plus the array.
    public func placedGlyphs() -> [PlacedGlyph] {
        var glyphs: [PlacedGlyph] = []
        forEachGlyph { glyphs.append($0) }
        return glyphs
    }

    /// Whether grapheme `index` is drawn at all: not a hanging space, not
    /// a separator, not starting with a C0/C1 control.
    func isDrawn(grapheme index: Int) -> Bool {
        let flags = shaped.flags[index]
        guard flags.isDisjoint(with: [.hangingSpace, .paragraphSeparator, .lineSeparator]) else { return false }
        let unit = shaped.text[Int(shaped.graphemeStarts[index])]
        return unit >= 0x20 && !(0x7F..<0xA0).contains(unit)
    }

    /// Index of the line whose graphemes include `index` (lines holding
    /// only attachments hold no grapheme, so they are never the answer for
    /// a grapheme); the last line for `graphemeCount`.
    /// - Complexity: O(log lines).
    func lineIndex(ofGrapheme index: Int) -> Int {
        var low = lines.lastIndex(whereKeyIsAtMost: index) { $0.graphemes.lowerBound }
        // Empty lines starting at `index` come before the one holding it.
        while low + 1 < lines.count, !lines[low].graphemes.contains(index),
              lines[low + 1].graphemes.lowerBound <= index { low += 1 }
        return low
    }
}

/// A shaping run's part of one line (``TextLayout/runs(onLine:)``): what a
/// client needs to draw the same text with the same font.
public struct LineRun: Hashable, Sendable {
    /// UTF-16 range of the run's visible content on the line.
    public var textRange: Range<Int>
    /// Index into ``ShapedText/fonts``.
    public var fontIndex: Int
    /// Left edge and width of the run's graphemes on screen.
    public var x: Double
    public var width: Double
    /// True when the run is right-to-left (an odd BiDi level).
    public var isRightToLeft: Bool
}

extension TextLayout {
    /// The runs of line `index` in logical order, cut to its visible
    /// content: hanging spaces at the line's end and its separator are in
    /// no run. A run has one font, script and direction, and its graphemes
    /// are contiguous on screen (one BiDi level), so `x` and `width` are
    /// the span the client's shaping of `textRange` in that font fills.
    /// - Complexity: O(log runs + graphemes on the line).
    public func runs(onLine index: Int) -> [LineRun] {
        guard lines.indices.contains(index) else { return [] }
        let line = lines[index]
        let content = line.graphemes.lowerBound..<line.contentEnd
        guard !content.isEmpty, !shaped.runs.isEmpty else { return [] }
        var result: [LineRun] = []
        var r = shaped.runIndex(containingGrapheme: content.lowerBound)
        while r < shaped.runs.count, shaped.runs[r].graphemes.lowerBound < content.upperBound {
            let run = shaped.runs[r]
            let graphemes = max(run.graphemes.lowerBound, content.lowerBound)..<min(run.graphemes.upperBound, content.upperBound)
            r += 1
            guard !graphemes.isEmpty else { continue }
            var left = Double.infinity
            var right = -Double.infinity
            for g in graphemes {
                left = min(left, graphemeX[g])
                right = max(right, graphemeX[g] + graphemeWidth(g))
            }
            let start = Int(shaped.graphemeStarts[graphemes.lowerBound])
            let end = Int(shaped.graphemeStarts[graphemes.upperBound])
            result.append(LineRun(
                textRange: start..<end, fontIndex: run.fontIndex, x: left, width: right - left,
                isRightToLeft: run.level & 1 == 1))
        }
        return result
    }
}
