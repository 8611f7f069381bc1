import CHarfBuzz
import Testing
@testable import LecternLayout

/// The glyph table must give HarfBuzz's own answers, or shaping would change.
@Suite struct NominalGlyphTableTests {
    /// Every font the default, DejaVu Sans and emoji fallback orders can
    /// load: for every BMP scalar, the table (through `covers` and through
    /// the sub-font HarfBuzz shapes with) agrees with HarfBuzz's cmap lookup
    /// on the unmodified font, glyph for glyph.
    @Test func agreesWithHarfBuzzOnEveryBMPScalarOfEveryFallbackFont() throws {
        let catalog = Fixtures.catalog
        var seen: Set<String> = []
        var fonts: [Font] = []
        for chain in [catalog.fallbackChain(for: .defaultSans), catalog.fallbackChain(for: Fixtures.dejaVu),
                      catalog.emojiChain()].compactMap({ $0 }) {
            for candidate in chain.candidates where seen.insert("\(candidate.path)#\(candidate.faceIndex)").inserted {
                if let font = Font(path: candidate.path, faceIndex: candidate.faceIndex, family: candidate.family) {
                    fonts.append(font)
                }
            }
        }
        #expect(fonts.count >= 3)
        for font in fonts {
            var mismatches = 0
            for scalar in UInt32(0)...0xFFFF {
                var expected: hb_codepoint_t = 0
                let found = hb_font_get_nominal_glyph(font.baseFont, scalar, &expected) != 0
                var actual: hb_codepoint_t = 0
                let shaped = hb_font_get_nominal_glyph(font.hbFont, scalar, &actual) != 0
                if font.covers(scalar) != found || shaped != found || (found && actual != expected) {
                    mismatches += 1
                }
            }
            #expect(mismatches == 0, "\(font)")
        }
    }

    /// The batch function stops at the first scalar the font lacks, as HarfBuzz's does.
    @Test func batchLookupStopsAtFirstMissingScalar() throws {
        let font = Fixtures.catalog.resolve(Fixtures.dejaVu).primary
        let scalars: [hb_codepoint_t] = [0x41, 0x430, 0x1F600, 0xD55C, 0x42] // A а 😀 한 B: DejaVu lacks 한
        var ours = [hb_codepoint_t](repeating: 0, count: scalars.count)
        var theirs = [hb_codepoint_t](repeating: 0, count: scalars.count)
        let stride = UInt32(MemoryLayout<hb_codepoint_t>.stride)
        let mapped = hb_font_get_nominal_glyphs(font.hbFont, UInt32(scalars.count), scalars, stride, &ours, stride)
        let expected = hb_font_get_nominal_glyphs(font.baseFont, UInt32(scalars.count), scalars, stride, &theirs, stride)
        #expect(mapped == expected)
        #expect(ours.prefix(Int(mapped)) == theirs.prefix(Int(expected)))
    }
}
