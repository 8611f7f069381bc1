import Testing
@testable import LecternLayout

@Suite struct FontCatalogTests {
    @Test func resolvesInstalledFamily() throws {
        let catalog = try FontCatalog()
        let resolution = catalog.resolve(FontSpec(family: "DejaVu Sans"))
        #expect(!resolution.isSubstitute)
        #expect(resolution.matchedFamily == "DejaVu Sans")
        #expect(resolution.primary.ascent > 0.5 && resolution.primary.descent > 0.1)
    }

    @Test func missingFamilyFallsBackAndSaysSo() throws {
        let catalog = try FontCatalog()
        let resolution = catalog.resolve(FontSpec(family: "No Such Font 12345"))
        #expect(resolution.isSubstitute)
        #expect(resolution.primary.covers(0x41))
    }

    @Test func genericFamilyIsNotASubstitute() throws {
        let catalog = try FontCatalog()
        #expect(!catalog.resolve(FontSpec(family: "sans-serif")).isSubstitute)
    }

    @Test func fallsBackPerCharacter() throws {
        let catalog = try FontCatalog()
        let spec = FontSpec(family: "DejaVu Sans")
        #expect(catalog.fallbackFont(for: 0xD55C, spec: spec)?.family.hasPrefix("Nanum") == true) // 한
        #expect(catalog.fallbackFont(for: 0x3042, spec: spec)?.covers(0x3042) == true) // あ
        #expect(catalog.emojiFont(for: 0x1F600)?.family == "Noto Color Emoji")
    }
}

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

@Suite struct ShapingTests {
    @Test func ligatureAdvanceIsSharedByItsGraphemes() {
        // DejaVu Sans forms "fi", "fl" and "ffi" ligatures (OpenType liga).
        let shaped = Fixtures.shaper.shape("fi fl ffi", spec: Fixtures.dejaVu)
        let advances = (0..<shaped.graphemeCount).map { shaped.advance(ofGrapheme: $0) }
        #expect(advances[0] == advances[1] && advances[3] == advances[4])
        #expect(advances[6] == advances[7] && advances[7] == advances[8])
        #expect(abs(advances[0] + advances[1] - 0.6298828125) < 1e-6) // the fi glyph: 1290/2048 em
    }

    @Test func graphemeClustersAreUAX29() {
        let shaped = Fixtures.shaper.shape("e\u{301}👍🏽🇰🇷\r\n각", spec: Fixtures.dejaVu)
        #expect((0..<shaped.graphemeCount).map(shaped.graphemeRange) == [0..<2, 2..<6, 6..<10, 10..<12, 12..<13])
        #expect(shaped.graphemeIndex(containing: 3) == 1 && shaped.graphemeBoundary(atOrBefore: 9) == 6)
    }
}

@Suite struct GraphemeFastPathTests {
    /// Every character the fast path accepts, in order, shuffled, and mixed
    /// with CR/LF: ICU's UAX #29 iterator must find the same boundaries.
    @Test func agreesWithICUOnEveryAcceptedCharacter() {
        let accepted = (UInt16(0)...UInt16(0xFFFF)).filter { TextAnalysis.isSimpleGrapheme($0) }
        #expect(accepted.count > 30_000)
        var generator = SeededGenerator(seed: 9)
        var shuffled = accepted.shuffled(using: &generator)
        shuffled.insert(contentsOf: [0x0D, 0x0A, 0x0D, 0x0D, 0x0A, 0x0A, 0xAC00, 0x0D], at: 100)
        let pool = BreakIteratorPool()
        for text in [accepted, shuffled, Array("Mixed 한국어 текст 日本語\r\nend\r".utf16)] {
            text.withUnsafeBufferPointer { buffer in
                let fast = TextAnalysis(text: buffer, iterators: pool)
                let icu = TextAnalysis(text: buffer, iterators: pool, allowFastPath: false)
                #expect(fast.graphemeStarts == icu.graphemeStarts)
                #expect(fast.flags.map(\.rawValue) == icu.flags.map(\.rawValue))
            }
        }
    }
}
