// SVGSizeEstimateTests.swift: the bound RENDER refuses large pictures by
// is never below what the renderer writes, and not far above it.

import Foundation
import LecternRandom
import Testing
@testable import LecternLayout

@Suite struct SVGSizeEstimateTests {
    /// Random texts in every script the fixtures have (right-to-left lines
    /// included), random attachments, highlights, sentence marks, caret and
    /// line boxes: the estimate is at least the real size every time.
    @Test func theEstimateIsAnUpperBound() {
        var random = SplitMix64(seed: 0x5A1E)
        for round in 0..<300 {
            var text = RandomTexts.text(using: &random, maxWords: 60, rightToLeft: round % 3 == 0)
            // Characters the writer escapes, and controls it drops.
            if round % 4 == 0 { text += " <a & b> \"it's\" \u{1}\u{7}" }
            let attachments = (0..<Int.random(in: 0...4, using: &random)).map { index in
                InlineAttachment(
                    name: "box\(index)&<\(index)>", offset: Int.random(in: 0...text.utf16.count, using: &random),
                    width: Double.random(in: 0...400, using: &random), height: Double.random(in: 0...60, using: &random),
                    baselineOffset: Double.random(in: -30...30, using: &random))
            }
            let layout = Fixtures.layout(
                text, width: Double.random(in: 20...400, using: &random), fontSize: Double.random(in: 6...40, using: &random),
                attachments: attachments)
            let ranges = RandomTexts.partition(layout.shaped, using: &random)
            var highlights = ranges.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
            if round % 5 == 0 { highlights.append(0..<layout.shaped.utf16Count) }  // overlapping the others
            let options = SVGOptions(
                sentences: ranges, highlights: highlights,
                caret: Bool.random(using: &random) ? Int.random(in: 0...text.utf16.count, using: &random) : nil,
                showLineBoxes: Bool.random(using: &random))
            let real = layout.renderSVG(options).utf8.count
            let estimate = layout.estimatedSVGSize(options)
            #expect(estimate >= real, "round \(round): estimate \(estimate) below the real \(real) for \(text.debugDescription)")
        }
    }

    /// For an ordinary long text the bound is close enough to refuse only
    /// pictures that are nearly too large anyway.
    @Test func theEstimateIsCloseForOrdinaryText() {
        let text = String(repeating: "The quick brown fox jumps over the lazy dog. Pack my box with five dozen jugs! ", count: 200)
        let layout = Fixtures.layout(text, width: 320)
        let sentences = (0..<400).map { n in (n * 39)..<(n * 39 + 39) }.filter { $0.upperBound <= text.utf16.count }
        let options = SVGOptions(sentences: sentences, highlights: Array(sentences.prefix(50)))
        let real = layout.renderSVG(options).utf8.count
        let estimate = layout.estimatedSVGSize(options)
        #expect(estimate >= real)
        #expect(Double(estimate) <= Double(real) * 1.2, "estimate \(estimate) for \(real) real bytes")
    }

    /// The glyphs are measured, not bounded: with nothing but text to
    /// draw, the estimate is the size, in every script (outlines, emoji
    /// bitmaps, right-to-left lines, conjuncts).
    @Test func theGlyphsAreMeasuredExactly() {
        for text in ["Plain Latin text, with fi and ffl.", "안녕하세요. 世界 😀🎉", "مرحبا بالعالم، שלום", "नमस्ते क्षत्रिय", ""] {
            let layout = Fixtures.layout(text, width: 120, fontSize: 23)
            let picture = layout.svgPicture()
            #expect(picture.draw().utf8.count == picture.estimatedSize, "\(text)")
        }
    }

    @Test func numbersAreBoundedByTheirMagnitude() {
        for value in [0, 0.0004, 0.001, 9.9996, 99.9995, 123.456, -123.456, 999.9996, 1e6 + 0.123, 1e10 + 0.5] {
            #expect(SVGWriter.number(value).utf8.count <= SVGSizeBound.numberBytes(upTo: abs(value)), "\(value)")
            #expect(SVGWriter.number(value).utf8.count <= SVGSizeBound.anyNumber)
        }
        #expect(SVGSizeBound.numberBytes(upTo: .infinity) == SVGSizeBound.anyNumber)
    }

    /// The glyphs' coordinates are counted without writing them: the count
    /// is the written length, for every magnitude and spelling.
    @Test func numberLengthsAreTheWrittenLengths() {
        var random = SplitMix64(seed: 0x1E97)
        var values: [Double] = [0, -0.0, 0.0004, -0.0004, 0.0005, 0.001, -0.001, 0.1, 0.12, 9.9996, 999.9995, 1e11 + 0.5,
                                1e12 - 0.001, 1e12 + 0.25, 1e15, 1e15 + 0.5, 1e20, -1e20, .nan, .infinity, -.infinity]
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -4...16, using: &random)
            values.append((Bool.random(using: &random) ? 1 : -1) * Double.random(in: 0...1, using: &random) * pow(10, magnitude))
        }
        for value in values {
            #expect(SVGWriter.numberLength(value) == SVGWriter.number(value).utf8.count, "\(value) → \(SVGWriter.number(value))")
        }
    }
}
