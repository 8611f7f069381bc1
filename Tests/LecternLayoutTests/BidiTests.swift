import Testing
@testable import LecternLayout

/// Hebrew and Arabic inside Latin text: visual order, hit-testing, rects.
@Suite struct BidiTests {
    // "abc " + Hebrew "שלום עולם" (offsets 4..<13) + " def"
    static let text = "abc שלום עולם def"

    @Test func hebrewRunsRightToLeftInsideLatin() {
        let layout = Fixtures.layout(Self.text, width: 1000)
        let shin = layout.shaped.graphemeIndex(containing: 4)
        let lamed = layout.shaped.graphemeIndex(containing: 5)
        #expect(layout.graphemeX[lamed] < layout.graphemeX[shin]) // logical order reversed on screen
        let d = layout.shaped.graphemeIndex(containing: 14)
        #expect(layout.graphemeX[d] > layout.graphemeX[shin]) // "def" after the Hebrew on the right
        // The caret before ש is at its right edge.
        #expect(layout.caretX(at: 4) == layout.graphemeX[shin] + layout.graphemeWidth(shin))
    }

    @Test func hitTestOnHebrewReportsTheLetter() {
        let layout = Fixtures.layout(Self.text, width: 1000)
        let shin = layout.shaped.graphemeIndex(containing: 4)
        let x = layout.graphemeX[shin]
        let width = layout.graphemeWidth(shin)
        let right = layout.hitTest(x: x + width * 0.75, y: 5)
        #expect(right.grapheme == 4..<5 && right.side == .leading && right.offset == 4)
        let left = layout.hitTest(x: x + width * 0.25, y: 5)
        #expect(left.grapheme == 4..<5 && left.side == .trailing && left.offset == 5)
    }

    @Test func logicalRangeGivesSeveralRectsOnOneLine() {
        let layout = Fixtures.layout(Self.text, width: 1000)
        let rects = layout.selectionRects(for: 2..<7) // "c שלו"
        #expect(rects.count == 2)
        #expect(Set(rects.map(\.minY)).count == 1)
        #expect(rects[0].maxX < rects[1].minX)
        #expect(layout.outline(for: 2..<7).count == 2)
    }

    @Test func rightToLeftParagraphIsRightAligned() {
        let layout = Fixtures.layout("مرحبا بالعالم", width: 300)
        let line = layout.lines[0]
        #expect(line.isRightToLeft)
        #expect(abs(line.x + line.width - 300) < 1e-9)
        let first = layout.hitTest(x: 299, y: 5)
        #expect(first.offset == 0)
    }

    @Test func caretRoundTripsInMixedText() {
        let layout = Fixtures.layout(Self.text, width: 1000)
        // Inside each direction run (away from the run boundaries, where
        // one x has two logical offsets) carets hit-test back.
        for offset in [1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17] {
            let caret = layout.caretRect(at: offset)
            #expect(layout.hitTest(x: caret.midX, y: caret.midY).offset == offset, "offset \(offset)")
        }
    }
}
