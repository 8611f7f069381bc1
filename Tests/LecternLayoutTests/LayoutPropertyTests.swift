import LecternRandom
import LecternText
import Testing
@testable import LecternLayout

/// Properties over many random texts and widths (seeded, bounded).
@Suite struct LayoutPropertyTests {
    static let iterations = 150

    static func layouts(seed: UInt64, rightToLeft: Bool = false) -> [(String, TextLayout)] {
        var generator = SplitMix64(seed: seed)
        return (0..<iterations).map { _ in
            let text = RandomTexts.text(using: &generator, rightToLeft: rightToLeft)
            let width = Double.random(in: 30...420, using: &generator).rounded()
            let size: Double = [11.0, 17.0, 23.0].randomElement(using: &generator) ?? 17.0
            // Some inline boxes at random offsets (rounded down to grapheme boundaries by layout).
            let attachments = (0..<Int.random(in: 0...2, using: &generator)).map { index in
                InlineAttachment(
                    name: "box\(index)", offset: Int.random(in: 0...text.utf16.count, using: &generator),
                    width: Double.random(in: 5...40, using: &generator).rounded(), height: 20)
            }
            return (text, Fixtures.layout(text, width: width, fontSize: size, attachments: attachments))
        }
    }

    /// The guessed search (a tap's grapheme, starting from where x would
    /// fall on evenly spaced graphemes) answers as the binary search does,
    /// whatever the guess: near, far, out of range, or on equal values.
    @Test func searchFromAGuessAgreesWithTheBinarySearch() {
        var generator = SplitMix64(seed: 9)
        for _ in 0..<5000 {
            let count = Int.random(in: 1...80, using: &generator)
            var position = Double.random(in: -50...50, using: &generator).rounded()
            let values: [Double] = (0..<count).map { _ in
                position += [0, 0.5, 3, 7, 12.25].randomElement(using: &generator)!
                return position
            }
            let value = Bool.random(using: &generator)
                ? values.randomElement(using: &generator)!
                : Double.random(in: (values[0] - 20)...(values[count - 1] + 20), using: &generator)
            let guess = Int.random(in: -5...(count + 5), using: &generator)
            values.withUnsafeBufferPointer { buffer in
                let expected = TextLayout.lastIndex(atOrBefore: value, in: buffer)
                #expect(TextLayout.lastIndex(atOrBefore: value, in: buffer, near: guess) == expected, "\(values) value \(value) guess \(guess)")
                if let expected {
                    #expect(values[expected] <= value && (expected + 1 == count || values[expected + 1] > value))
                } else {
                    #expect(values[0] > value)
                }
            }
        }
    }

    @Test func caretOfEveryGraphemeOffsetHitTestsBackToIt() {
        var checked = 0
        defer { #expect(checked > 2000) }
        for (text, layout) in Self.layouts(seed: 1) {
            var offsets = (0..<layout.shaped.graphemeCount).map { layout.shaped.graphemeRange($0).lowerBound }
            offsets.append(layout.shaped.utf16Count)
            let visibleEnd = DocumentText(text).trimmedEnd
            var previous: (caret: Rect, expected: Int)?
            for offset in offsets {
                let caret = layout.caretRect(at: offset)
                let hit = layout.hitTest(x: caret.midX, y: caret.midY)
                checked += 1
                // The text's closing line ends share one line and have no
                // width: offsets among them with the same caret give the first.
                var expected = offset
                if offset > visibleEnd, let previous, previous.caret == caret { expected = previous.expected }
                previous = (caret, expected)
                #expect(hit.offset == expected, "text \(text.debugDescription) width \(layout.spec.width) offset \(offset) caret \(caret)")
                if hit.offset != expected { return }
            }
        }
    }

    @Test(arguments: [false, true])
    func glyphCentresHitTheirGrapheme(rightToLeft: Bool) {
        for (text, layout) in Self.layouts(seed: 7, rightToLeft: rightToLeft) {
            for (index, line) in layout.lines.enumerated() {
                for g in line.graphemes.lowerBound..<line.contentEnd where layout.graphemeWidth(g) > 0 {
                    let hit = layout.hitTest(x: layout.graphemeX[g] + layout.graphemeWidth(g) / 2, y: line.top + line.height / 2)
                    #expect(hit.grapheme == layout.shaped.graphemeRange(g) && hit.isInside && hit.line == index,
                            "grapheme \(g) of \(text.debugDescription)")
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func rectsOfDifferentRangesNeverOverlap(rightToLeft: Bool) {
        var generator = SplitMix64(seed: 2)
        for (text, layout) in Self.layouts(seed: 2, rightToLeft: rightToLeft) {
            let ranges = RandomTexts.partition(layout.shaped, using: &generator)
            let rects = ranges.map { layout.selectionRects(for: $0) }
            for i in rects.indices {
                for j in rects.indices where j > i {
                    for a in rects[i] {
                        for b in rects[j] where a.overlaps(b) {
                            Issue.record("overlap \(a) \(b) ranges \(ranges[i]) \(ranges[j]) in \(text.debugDescription)")
                            return
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func unionOfRangesCoversEveryGlyph(rightToLeft: Bool) {
        var generator = SplitMix64(seed: 3)
        var glyphs = 0
        defer { #expect(glyphs > 2000) }
        for (text, layout) in Self.layouts(seed: 3, rightToLeft: rightToLeft) {
            let rects = RandomTexts.partition(layout.shaped, using: &generator).flatMap { layout.selectionRects(for: $0) }
            for line in layout.lines {
                for g in line.graphemes.lowerBound..<line.contentEnd where layout.graphemeWidth(g) > 0 {
                    glyphs += 1
                    let center = Point(x: layout.graphemeX[g] + layout.graphemeWidth(g) / 2, y: line.top + line.height / 2)
                    #expect(rects.contains { $0.contains(center) }, "grapheme \(g) uncovered in \(text.debugDescription)")
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func noLineIsWiderThanTheViewUnlessUnbreakable(rightToLeft: Bool) {
        for (text, layout) in Self.layouts(seed: 4, rightToLeft: rightToLeft) {
            for line in layout.lines where line.width > layout.spec.lineWidth + 1e-6 {
                let items = (line.contentEnd - line.graphemes.lowerBound) + line.attachments.count
                #expect(items == 1, "line \(line) of \(text.debugDescription) is too wide")
            }
        }
    }

    @Test func rectsTileVerticallyWithoutGaps() {
        for (_, layout) in Self.layouts(seed: 5) {
            let rects = layout.selectionRects(for: 0..<layout.shaped.utf16Count)
            for (upper, lower) in zip(rects, rects.dropFirst()) where lower.minY != upper.minY {
                #expect(lower.minY == upper.maxY)
            }
        }
    }

    @Test func relayoutAtNewWidthsDoesNotReshape() {
        let shaper = Shaper(catalog: Fixtures.catalog)
        let shaped = shaper.shape(String(repeating: "Reading 한국어 Съешь 😀. ", count: 20), spec: Fixtures.dejaVu)
        let before = shaper.statistics
        #expect(before.textsShaped == 1 && before.runsShaped > 1)
        for width in stride(from: 50.0, through: 500, by: 25) {
            let layout = TextLayout(shaped: shaped, spec: LayoutSpec(width: width, fontSize: 17))
            #expect(layout.lines.count > 1)
        }
        #expect(shaper.statistics == before)
    }
}
