import Testing
@testable import LecternLayout

@Suite struct SVGRendererTests {
    @Test func rendersTextHighlightsAttachmentsAndCaret() throws {
        let text = "Tap <the> cat & see 고양이. It dances 😀"
        let cat = InlineAttachment(name: "cat.gif", offset: text.utf16.count, width: 30, height: 30)
        let layout = Fixtures.layout(text, width: 160, attachments: [cat])
        let svg = layout.renderSVG(SVGOptions(
            sentences: [0..<26, 26..<text.utf16.count], highlights: [0..<26], caret: 4, showLineBoxes: true))
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        // The text is glyphs, each font's own: Hangul in NanumGothic, the emoji's bitmap.
        let families = layout.shaped.fontUsage.map(\.font.family)
        let nanum = try #require(families.firstIndex(of: "NanumGothic"))
        let emoji = try #require(families.firstIndex(of: "Noto Color Emoji"))
        #expect(svg.contains("<use href=\"#f\(nanum)g") && svg.contains("<image id=\"f\(emoji)g"))
        #expect(svg.components(separatedBy: "<use ").count - 1 == text.unicodeScalars.filter { $0 != " " }.count)
        #expect(svg.components(separatedBy: "<text ").count == 2, "one <text>: the attachment's name")
        #expect(svg.contains("<polygon points="))
        #expect(svg.contains(">cat.gif</text>"))
        #expect(svg.contains("fill:#06c"))
    }

    @Test func numbersAreCompact() {
        #expect(SVGWriter.number(12) == "12")
        #expect(SVGWriter.number(12.34567) == "12.346")
        #expect(SVGWriter.number(.nan) == "0")
    }

    /// No double, however large, makes the writer trap (a baseline of 1e20
    /// once did, converting to Int), and none is written with an exponent.
    @Test func noNumberTrapsOrUsesAnExponent() {
        for value in [1e20, -1e20, 1e300, -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                      .infinity, -.infinity, .nan, 9.3e18, 1e15 + 0.5, 1e-300, -1e-7, .leastNonzeroMagnitude] {
            let text = SVGWriter.number(value)
            #expect(!text.contains("e") && !text.contains("E"), "\(value) → \(text)")
            #expect(Double(text) != nil, "\(value) → \(text)")
        }
        #expect(SVGWriter.number(1e20) == "1000000000000000")
        #expect(SVGWriter.number(-1e20) == "-1000000000000000")
    }

    @Test func anAttachmentFarOffTheBaselineRenders() {
        let huge = InlineAttachment(name: "far", offset: 3, width: 10, height: 10, baselineOffset: 1e20)
        let layout = Fixtures.layout("One. Two.", width: 160, attachments: [huge])
        let svg = layout.renderSVG(SVGOptions(sentences: [0..<5, 5..<9], highlights: [], caret: nil, showLineBoxes: true))
        #expect(svg.hasSuffix("</svg>\n"))
    }
}
