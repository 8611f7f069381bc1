import Testing
@testable import LecternLayout

@Suite struct SelectionGeometryTests {
    static let text = "The quick brown fox jumps over the lazy dog."

    @Test func multiLineSentenceHasOneRectPerLineAndOneOutline() {
        let layout = Fixtures.layout(Self.text, width: 150) // "The quick brown ", "fox jumps over ", "the lazy dog."
        let range = 4..<39 // "quick … lazy"
        let rects = layout.selectionRects(for: range)
        #expect(rects.count == 3)
        #expect(rects[0].minX == layout.caretX(at: 4))
        #expect(rects[0].maxX == layout.lines[0].x + layout.lines[0].width) // hanging space excluded
        #expect(rects[1].minX == layout.lines[1].x && rects[1].maxX == layout.lines[1].x + layout.lines[1].width)
        #expect(rects[2].maxX == layout.caretX(at: 39))
        #expect(rects[0].maxY == rects[1].minY && rects[1].maxY == rects[2].minY)
        let outline = layout.outline(for: range)
        #expect(outline.count == 1)
        #expect(outline[0].count == 10) // a staircase: lines of three different right edges
        #expect(outline[0].contains(Point(x: rects[0].minX, y: rects[0].minY)))
    }

    @Test func disjointFirstAndLastLineGiveTwoOutlines() {
        let layout = Fixtures.layout(Self.text, width: 150)
        let rects = layout.selectionRects(for: 12..<20) // "own fox " → end of line 1, start of line 2
        #expect(rects.count == 2)
        #expect(layout.outline(for: 12..<20).count == 2)
    }

    @Test func emptyRangeHasNoRectsAndEmptyLinesGetAMarker() {
        let layout = Fixtures.layout("ab\n\ncd", width: 200)
        #expect(layout.selectionRects(for: 1..<1).isEmpty)
        let rects = layout.selectionRects(for: 0..<6)
        #expect(rects.count == 3)
        #expect(rects[1].width == TextLayout.emptyLineMarkerWidth * 17)
    }

    @Test func rangeOfOnlyHangingSpacesHasNoRect() {
        let layout = Fixtures.layout(Self.text, width: 150)
        #expect(layout.selectionRects(for: 15..<16).isEmpty)
    }

    @Test func caretAtWrapIsOnTheNextLine() {
        let layout = Fixtures.layout(Self.text, width: 150)
        let caret = layout.caretRect(at: 16)
        #expect(caret.minY == layout.lines[1].top && caret.midX == layout.lines[1].x)
        #expect(caret.width == TextLayout.caretWidth && caret.height == layout.lines[1].height)
    }

    @Test func generalTracerHandlesOverlappingRects() {
        let rects = [
            Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 5, y: 5, width: 10, height: 10),
            Rect(x: 30, y: 0, width: 5, height: 5),
        ]
        let polygons = RectUnion.outline(of: rects)
        #expect(polygons.count == 2)
        #expect(polygons.map(\.count).sorted() == [4, 8])
    }
}
