// ShapedRenderingTests.swift: RENDER's SVG draws the glyphs HarfBuzz shaped (joined Arabic, Devanagari
// conjuncts), as outlines defined once per glyph, at the positions hit-testing uses (issue 18 item 8).

import CHarfBuzz
import Foundation
import Testing
@testable import LecternLayout

@Suite struct ShapedRenderingTests {
    /// HarfBuzz's glyphs for `text` shaped whole in the font file at
    /// `path` (its OpenType functions, direction and script guessed): the
    /// reference, made without Lectern's shaper.
    static func referenceGlyphs(_ text: String, path: String, index: Int = 0) -> [UInt32] {
        guard let blob = hb_blob_create_from_file_or_fail(path) else { return [] }
        defer { hb_blob_destroy(blob) }
        guard let face = hb_face_create(blob, UInt32(index)), let font = hb_font_create(face),
              let buffer = hb_buffer_create() else { return [] }
        defer {
            hb_buffer_destroy(buffer)
            hb_font_destroy(font)
            hb_face_destroy(face)
        }
        hb_buffer_add_utf8(buffer, text, -1, 0, -1)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count) else { return [] }
        return (0..<Int(count)).map { infos[$0].codepoint }
    }

    /// Each character of `text` shaped alone: what one `<text>` per
    /// character amounts to (isolated forms, no conjuncts).
    static func perCharacterGlyphs(_ text: String, path: String) -> [UInt32] {
        text.unicodeScalars.flatMap { referenceGlyphs(String($0), path: path) }
    }

    /// The glyph ids of the `<use>` elements of an SVG, in order, for font `font`.
    static func usedGlyphs(_ svg: String, font: Int) -> [UInt32] {
        svg.components(separatedBy: "<use href=\"#f\(font)g").dropFirst().compactMap {
            UInt32($0.prefix { $0.isNumber })
        }
    }

    static func layout(_ text: String, width: Double = 400, family: String = "DejaVu Sans") -> TextLayout {
        let spec = FontSpec(family: family)
        return TextLayout(shaped: Fixtures.shaper.shape(text, spec: spec), spec: LayoutSpec(font: spec, width: width, fontSize: 20))
    }

    /// The font of a layout that draws `scalar`: its index in
    /// `ShapedText.fonts`, and in `fontUsage` (the number the SVG's ids use).
    static func fontIndex(drawing scalar: Unicode.Scalar, in layout: TextLayout) throws -> (font: Int, usage: Int) {
        let offset = try #require(layout.shaped.text.firstIndex(of: UInt16(scalar.value)))
        let grapheme = layout.shaped.graphemeIndex(containing: offset)
        let font = layout.shaped.runs[layout.shaped.runIndex(containingGrapheme: grapheme)].fontIndex
        return (font, try #require(layout.shaped.usageIndex[font]))
    }

    @Test func anArabicWordIsDrawnAsItsJoinedGlyphs() throws {
        let word = "مرحبا"
        let layout = Self.layout(word)
        let (fontIndex, font) = try Self.fontIndex(drawing: "م", in: layout)
        let path = layout.shaped.fonts[fontIndex].path
        let svg = layout.renderSVG()
        // Glyphs in visual order, as HarfBuzz gives a right-to-left run.
        let joined = Self.referenceGlyphs(word, path: path)
        let isolated = Self.perCharacterGlyphs(word, path: path)
        #expect(joined.count == 5)
        #expect(joined != isolated.reversed() && Set(joined) != Set(isolated), "the font has joining forms")
        #expect(Self.usedGlyphs(svg, font: font) == joined)
        #expect(!svg.contains("<text"), "no character is left to the viewer's fonts")
        // Every glyph drawn has its outline defined once.
        for glyph in Set(joined) {
            #expect(svg.components(separatedBy: "<path id=\"f\(font)g\(glyph)\"").count == 2)
        }
    }

    @Test func aDevanagariConjunctIsDrawnAsShaped() throws {
        let word = "क्षत्रिय"
        let layout = Self.layout(word)
        let (fontIndex, font) = try Self.fontIndex(drawing: "क", in: layout)
        let path = layout.shaped.fonts[fontIndex].path
        #expect(layout.shaped.fonts[fontIndex].family == "Lohit Devanagari", "fonts-lohit-deva (scripts/install-deps)")
        #expect(font == 0, "the font drawing every grapheme is VIEW's first")
        let shaped = Self.referenceGlyphs(word, path: path)
        let perCharacter = Self.perCharacterGlyphs(word, path: path)
        // क्ष is one glyph, and the i-matra moves before त्र: fewer glyphs, another order.
        #expect(shaped.count < perCharacter.count)
        #expect(Self.usedGlyphs(layout.renderSVG(), font: font) == shaped)
    }

    /// Glyphs sit where the layout's carets are: each cluster starts at
    /// its grapheme's edge, in left-to-right and right-to-left lines, and
    /// no glyph is drawn twice or left out.
    @Test func glyphsAreWhereTheLayoutPutsTheirGraphemes() {
        for text in ["Hello, world. fi ffl", "مرحبا بالعالم", "안녕하세요 세계", "नमस्ते दुनिया"] {
            let layout = Self.layout(text, width: 120)
            let glyphs = layout.placedGlyphs()
            #expect(!glyphs.isEmpty)
            for glyph in glyphs where glyph.x.isFinite {
                let grapheme = layout.shaped.graphemeIndex(containing: glyph.cluster)
                let line = layout.lines[layout.lineIndex(ofGrapheme: grapheme)]
                #expect(glyph.x >= line.x - 1 && glyph.x <= line.x + line.width + 1, "\(text): \(glyph)")
                #expect(abs(glyph.y - line.baseline) < 20)
            }
        }
    }

    /// The same glyph in many places is defined once: the picture grows by
    /// one short `<use>` per glyph, not one outline per glyph.
    @Test func repeatedGlyphsAreDefinedOnce() {
        let layout = Self.layout(String(repeating: "ab ", count: 300), width: 300)
        let picture = layout.svgPicture()
        #expect(picture.distinctGlyphs.count == 2)
        #expect(picture.glyphUses == 600)
        let svg = picture.draw()
        #expect(svg.components(separatedBy: "<path id=").count - 1 == 2)
        #expect(svg.components(separatedBy: "<use ").count - 1 == 600)
        #expect(svg.utf8.count <= picture.estimatedSize)
        #expect(svg.utf8.count < 600 * 60, "\(svg.utf8.count) bytes")
    }

    /// A picture measured past its budget keeps no glyph positions and
    /// draws the same picture by shaping again.
    @Test func aPictureOverItsBudgetDrawsTheSame() {
        let layout = Self.layout("Tap me. Then مرحبا and 안녕 😀, नमस्ते.", width: 150)
        let options = SVGOptions(sentences: [0..<8], highlights: [0..<8], caret: 3, showLineBoxes: true)
        let kept = layout.svgPicture(options)
        let tight = layout.svgPicture(options, budget: 100)
        #expect(kept.estimatedSize == tight.estimatedSize)
        #expect(kept.draw() == tight.draw())
        #expect(kept.draw().utf8.count <= kept.estimatedSize)
    }

    /// A colour emoji (a bitmap font without outlines) is drawn as its PNG.
    @Test func aColourEmojiIsItsBitmap() {
        let svg = Self.layout("Hi 😀").renderSVG()
        #expect(svg.contains("<image id=\"f1g"))
        #expect(svg.contains("href=\"data:image/png;base64,iVBORw0KGgo"))
    }
}

