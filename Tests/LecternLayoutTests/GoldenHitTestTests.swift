import Testing
@testable import LecternLayout

/// Hit-tests at points computed from the fonts' advances at 17 pt
/// (DejaVu Sans "H" 1540/2048 em = 12.783 pt, NanumGothic Hangul 0.94 em,
/// IPAGothic kana/kanji 1 em, Noto Color Emoji 2550/2048 em).
@Suite struct GoldenHitTestTests {
    static func character(_ layout: TextLayout, _ hit: HitResult) -> String {
        String(decoding: layout.shaped.text[hit.grapheme], as: UTF16.self)
    }

    @Test func english() {
        let layout = Fixtures.layout("Hello world", width: 1000)
        #expect(abs(layout.caretX(at: 1) - 17 * 1540 / 2048) < 1e-4)
        let leading = layout.hitTest(x: 13, y: 5)
        #expect(leading.offset == 1 && leading.side == .leading && leading.isInside && leading.distance == 0)
        #expect(Self.character(layout, leading) == "e")
        let trailing = layout.hitTest(x: 22, y: 5)
        #expect(trailing.offset == 2 && trailing.side == .trailing)
        let right = layout.hitTest(x: 500, y: 5)
        #expect(right.offset == 11 && !right.isInside && abs(right.distance - (500 - layout.lines[0].width)) < 1e-9)
        #expect(Self.character(layout, right) == "d")
        let left = layout.hitTest(x: -10, y: 5)
        #expect(left.offset == 0 && !left.isInside && left.distance == 10)
        let above = layout.hitTest(x: 30, y: -50)
        #expect(above.line == 0 && above.offset == 3 && !above.isInside && above.distance == 50)
        let below = layout.hitTest(x: 30, y: 500)
        #expect(below.line == 0 && below.offset == 3 && !below.isInside)
    }

    @Test func korean() {
        let layout = Fixtures.layout("동해 물과 백두산이 마르고 닳도록 하느님이 보우하사 우리나라 만세.", width: 150)
        let hit = layout.hitTest(x: 35, y: 30) // second line: 마 르 고, 0.94 em each
        #expect(Self.character(layout, hit) == "고" && hit.side == .leading && hit.line == 1)
    }

    @Test func russian() {
        let layout = Fixtures.layout("Съешь же ещё этих мягких французских булок, да выпей чаю.", width: 150)
        let hit = layout.hitTest(x: 40, y: 10)
        #expect(Self.character(layout, hit) == "ш" && hit.side == .leading)
    }

    @Test func japanese() {
        let layout = Fixtures.layout("吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。", width: 150)
        let hit = layout.hitTest(x: 55, y: 50) // third line, 17 pt per character
        #expect(Self.character(layout, hit) == "生" && hit.side == .leading && hit.line == 2)
        let trailing = layout.hitTest(x: 16, y: 50)
        #expect(Self.character(layout, trailing) == "ど" && trailing.side == .trailing)
    }

    @Test func emoji() {
        let layout = Fixtures.layout("Good morning 😀 안녕하세요 👍🏽 Привет 🇰🇷 end.", width: 150)
        let start = layout.caretX(at: 13)
        #expect(abs(layout.caretX(at: 15) - start - 17 * 2550 / 2048) < 1e-4)
        let hit = layout.hitTest(x: start + 12, y: 10)
        #expect(Self.character(layout, hit) == "😀" && hit.side == .trailing && hit.offset == 15)
        let thumbs = layout.hitTest(x: layout.caretX(at: 22) + 3, y: 30)
        #expect(Self.character(layout, thumbs) == "👍🏽" && thumbs.offset == 22 && thumbs.line == 1)
    }

    @Test func hangingSpaceAndSeparatorMapToLineEnd() {
        let layout = Fixtures.layout("one two\nthree", width: 1000)
        let end = layout.hitTest(x: 900, y: 5)
        #expect(end.offset == 7 && Self.character(layout, end) == "o" && !end.isInside)
    }

    @Test func wrappedLineEndIsUpstream() {
        let layout = Fixtures.layout("The quick brown fox", width: 150)
        let hit = layout.hitTest(x: 149, y: 5) // past "brown", over its hanging space
        #expect(hit.offset == 16 && Self.character(layout, hit) == "n" && !hit.isInside)
    }
}
