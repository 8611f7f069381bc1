import Testing
@testable import LecternLayout

/// Reshaping an edited document copies unchanged paragraphs.
@Suite struct ParagraphReuseTests {
    static func document(editing paragraph: Int? = nil) -> [UInt16] {
        let paragraphs = (0..<20).map { (index: Int) -> String in
            index == paragraph
                ? "Edited paragraph 편집된 문단 😀 with שלום inside."
                : "Paragraph \(index): Reading 한국어 текст 日本語 😀 fi ffi, مرحبا."
        }
        return Array(paragraphs.joined(separator: "\n").utf16)
    }

    @Test func editedDocumentReshapesOnlyTheChangedParagraph() {
        let shaper = Shaper(catalog: Fixtures.catalog)
        let original = shaper.shape(utf16: Self.document(), spec: Fixtures.dejaVu)
        let before = shaper.statistics
        let edited = shaper.shape(utf16: Self.document(editing: 7), spec: Fixtures.dejaVu, reusing: original)
        let after = shaper.statistics
        #expect(after.paragraphsReused - before.paragraphsReused == 19)
        let fresh = Shaper(catalog: Fixtures.catalog).shape(utf16: Self.document(editing: 7), spec: Fixtures.dejaVu)
        #expect(after.runsShaped - before.runsShaped < fresh.runs.count / 10)
        // Identical to shaping from scratch.
        #expect(edited.advances == fresh.advances)
        #expect(edited.runs.map(\.graphemes) == fresh.runs.map(\.graphemes))
        #expect(edited.runs.map { edited.fonts[$0.fontIndex].path } == fresh.runs.map { fresh.fonts[$0.fontIndex].path })
        #expect(edited.runs.map(\.level) == fresh.runs.map(\.level))
    }

    @Test func previousResultForAnotherSpecIsIgnored() {
        let shaper = Shaper(catalog: Fixtures.catalog)
        let serif = shaper.shape(utf16: Self.document(), spec: FontSpec(family: "DejaVu Serif"))
        let sans = shaper.shape(utf16: Self.document(), spec: Fixtures.dejaVu, reusing: serif)
        #expect(shaper.statistics.paragraphsReused == 0)
        #expect(sans.advances == shaper.shape(utf16: Self.document(), spec: Fixtures.dejaVu).advances)
    }
}
