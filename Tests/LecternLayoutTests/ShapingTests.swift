import Testing
@testable import LecternLayout
import CICU

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

@Suite struct ScriptFastPathTests {
    @Test func agreesWithICU() {
        let ranges: [ClosedRange<UInt32>] = [0x00...0x7F, 0x0400...0x0482, 0xAC00...0xD7A3]
        for range in ranges {
            for scalar in range {
                #expect(ShapingSession.script(of: scalar) == lc_script(scalar), "U+\(String(scalar, radix: 16))")
            }
        }
    }
}
