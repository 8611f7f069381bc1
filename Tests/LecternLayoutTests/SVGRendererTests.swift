import Testing
@testable import LecternLayout

@Suite struct SVGRendererTests {
    @Test func rendersTextHighlightsAttachmentsAndCaret() {
        let text = "Tap <the> cat & see 고양이. It dances 😀"
        let cat = InlineAttachment(name: "cat.gif", offset: text.utf16.count, width: 30, height: 30)
        let layout = Fixtures.layout(text, width: 160, attachments: [cat])
        let svg = layout.renderSVG(SVGOptions(
            sentences: [0..<26, 26..<text.utf16.count], highlights: [0..<26], caret: 4, showLineBoxes: true))
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.contains(">&lt;</text>") && svg.contains(">&amp;</text>"))
        #expect(svg.contains("font-family:&apos;NanumGothic&apos;") && svg.contains("font-family:&apos;Noto Color Emoji&apos;"))
        #expect(svg.contains("<polygon points="))
        #expect(svg.contains(">cat.gif</text>"))
        #expect(svg.contains("fill:#06c"))
    }

    @Test func numbersAreCompact() {
        #expect(SVGWriter.number(12) == "12")
        #expect(SVGWriter.number(12.34567) == "12.346")
        #expect(SVGWriter.number(.nan) == "0")
    }
}
