import Testing
@testable import LecternLayout

@Suite struct ShapingCacheTests {
    @Test func shapesOncePerFontSpecWhateverTheView() {
        let shaper = Shaper(catalog: Fixtures.catalog)
        let cache = ShapingCache(text: Array("Tap a sentence. 문장을 누르면.".utf16), shaper: shaper)
        for width in [100.0, 200, 300] {
            for size in [12.0, 17] {
                _ = cache.layout(LayoutSpec(font: Fixtures.dejaVu, width: width, fontSize: size, lineHeight: .multiple(1.4)))
            }
        }
        #expect(shaper.statistics.textsShaped == 1)
        _ = cache.layout(LayoutSpec(font: FontSpec(family: "DejaVu Serif"), width: 100, fontSize: 17))
        #expect(shaper.statistics.textsShaped == 2)
        #expect(cache.contains(FontSpec(family: "DejaVu Serif")))
    }

    @Test func acceptsResultsShapedElsewhereForTheSameTextOnly() {
        let shaper = Shaper(catalog: Fixtures.catalog)
        let cache = ShapingCache(text: Array("abc".utf16), shaper: shaper)
        cache.insert(shaper.shape("other", spec: Fixtures.dejaVu))
        #expect(!cache.contains(Fixtures.dejaVu))
        cache.insert(shaper.shape("abc", spec: Fixtures.dejaVu))
        #expect(cache.contains(Fixtures.dejaVu))
    }
}

@Suite struct ShapingCacheEditTests {
    @Test func cacheOfAnEditedTextReusesUnchangedParagraphs() {
        let shaper = Shaper(catalog: Fixtures.catalog)
        let before = ShapingCache(text: ParagraphReuseTests.document(), shaper: shaper)
        _ = before.layout(LayoutSpec(font: Fixtures.dejaVu, width: 200, fontSize: 17))
        let after = ShapingCache(text: ParagraphReuseTests.document(editing: 3), shaper: shaper, reusing: before)
        _ = after.layout(LayoutSpec(font: Fixtures.dejaVu, width: 200, fontSize: 17))
        #expect(shaper.statistics.paragraphsReused == 19)
        #expect(shaper.statistics.textsShaped == 2)
    }
}
