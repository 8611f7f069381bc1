import Testing
@testable import LecternLayout

@Suite struct HostileInputTests {
    @Test func nonFiniteAndHugeCoordinatesDoNotTrap() {
        let layout = Fixtures.layout("one two three four five six", width: 60)
        for value in [Double.infinity, -.infinity, .nan, 1e300, -1e300, .greatestFiniteMagnitude] {
            _ = layout.hitTest(x: value, y: 10)
            _ = layout.hitTest(x: 10, y: value)
            _ = layout.hitTest(x: value, y: value)
        }
        #expect(layout.hitTest(x: 10, y: .infinity).line == layout.lines.count - 1)
    }

    @Test func outOfRangeOffsetsAndSpecsAreClamped() {
        let layout = Fixtures.layout("abc", width: -5, fontSize: .nan)
        #expect(layout.fontSize == LayoutSpec.minimumFontSize)
        #expect(layout.caretRect(at: -10) == layout.caretRect(at: 0))
        #expect(layout.caretRect(at: 99) == layout.caretRect(at: 3))
        #expect(layout.selectionRects(for: -5..<99).count == layout.lines.count)
        let weird = InlineAttachment(name: "x", offset: 1000, width: .nan, height: -3, baselineOffset: .infinity)
        let withAttachment = Fixtures.layout("abc", width: 100, attachments: [weird])
        #expect(withAttachment.attachments[0].offset == 3 && withAttachment.attachmentFrames[0].width == 0)
    }

    @Test func boldAndItalicResolveToTheirFaces() {
        let bold = Fixtures.catalog.resolve(FontSpec(family: "DejaVu Sans", weight: 700))
        let italic = Fixtures.catalog.resolve(FontSpec(family: "DejaVu Sans", italic: true))
        #expect(bold.primary.path.hasSuffix("DejaVuSans-Bold.ttf") && !bold.isSubstitute)
        #expect(italic.primary.path.hasSuffix("DejaVuSans-Oblique.ttf") && !italic.isSubstitute)
    }
}
