import Testing
@testable import LecternLayout

/// Line breaks recorded with the installed fonts (DejaVu Sans, NanumGothic,
/// IPAGothic, Noto Color Emoji) at 17 pt, checked by eye against UAX #14.
@Suite struct GoldenLineBreakTests {
    @Test func english() {
        let layout = Fixtures.layout("The quick brown fox jumps over the lazy dog.", width: 150)
        #expect(Fixtures.lineTexts(layout) == ["The quick brown ", "fox jumps over ", "the lazy dog."])
        // Hanging spaces never count: the first line's width ends at "brown".
        #expect(abs(layout.lines[0].width - 140.391) < 0.01)
    }

    @Test func korean() {
        let layout = Fixtures.layout("동해 물과 백두산이 마르고 닳도록 하느님이 보우하사 우리나라 만세.", width: 150)
        // UAX #14 lets Hangul syllables break anywhere (classes H2/H3), as Pango does.
        #expect(Fixtures.lineTexts(layout) == ["동해 물과 백두산이 ", "마르고 닳도록 하느", "님이 보우하사 우리", "나라 만세."])
        #expect(layout.shaped.fonts.map(\.family).contains("NanumGothic"))
    }

    @Test func russian() {
        let layout = Fixtures.layout("Съешь же ещё этих мягких французских булок, да выпей чаю.", width: 150)
        #expect(Fixtures.lineTexts(layout) == ["Съешь же ещё ", "этих мягких ", "французских ", "булок, да выпей ", "чаю."])
    }

    @Test func japanese() {
        let layout = Fixtures.layout("吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。", width: 150)
        // No break before "。" (LB13/LB30 class CL): "ぬ。" moves down together.
        #expect(Fixtures.lineTexts(layout) == ["吾輩は猫である。", "名前はまだ無い。", "どこで生れたかと", "んと見当がつか", "ぬ。"])
        #expect(layout.lines[0].width == 136) // IPAGothic: 1 em per character
    }

    @Test func mixedWithEmoji() {
        let layout = Fixtures.layout("Good morning 😀 안녕하세요 👍🏽 Привет 🇰🇷 end.", width: 150)
        #expect(Fixtures.lineTexts(layout) == ["Good morning 😀 ", "안녕하세요 👍🏽 ", "Привет 🇰🇷 ", "end."])
        #expect(Set(layout.shaped.fonts.map(\.family)) == ["DejaVu Sans", "Noto Color Emoji", "NanumGothic"])
    }

    @Test func emojiAdvanceScalesWithSize() {
        // Noto Color Emoji is bitmap-only (CBDT); its hmtx advance is 2550/2048 em.
        for size in [9.0, 17, 40] {
            let layout = Fixtures.layout("😀", width: 500, fontSize: size)
            #expect(abs(layout.graphemeWidth(0) - size * 2550 / 2048) < 0.001)
        }
    }

    @Test func longWordBreaksAtGraphemes() {
        let layout = Fixtures.layout("supercalifragilisticexpialidocious", width: 100)
        #expect(Fixtures.lineTexts(layout) == ["supercalifr", "agilisticexp", "ialidocious"])
        #expect(layout.lines.allSatisfy { $0.width <= 100 })
    }

    @Test func hardBreaksAndEmptyLines() {
        // The final line end closes the last line and opens no empty one.
        let layout = Fixtures.layout("abc\n\ndef\r\nghi\u{2029}jkl\u{2028}mno\n", width: 500)
        #expect(Fixtures.lineTexts(layout) == ["abc\n", "\n", "def\r\n", "ghi\u{2029}", "jkl\u{2028}", "mno\n"])
        #expect(layout.shaped.paragraphs.count == 5)
        #expect(layout.lines[1].width == 0 && layout.lines[1].contentEnd == layout.lines[1].graphemes.lowerBound)
    }

    @Test func emptyText() {
        let layout = Fixtures.layout("", width: 100)
        #expect(layout.lines.count == 1)
        #expect(layout.lines[0].height > 0)
        #expect(layout.hitTest(x: 10, y: 10).offset == 0)
        #expect(layout.caretRect(at: 0).height == layout.lines[0].height)
    }

    @Test func zeroWidthViewPutsOneGraphemePerLine() {
        let layout = Fixtures.layout("ab cd", width: 0)
        #expect(Fixtures.lineTexts(layout) == ["a", "b ", "c", "d"])
    }

    @Test func lineHeightModesTileWithHalfLeading() {
        let natural = Fixtures.layout("one two three four", width: 60)
        let absolute = Fixtures.layout("one two three four", width: 60, lineHeight: .absolute(30))
        let double = Fixtures.layout("one two three four", width: 60, lineHeight: .multiple(2))
        for layout in [natural, absolute, double] {
            #expect(layout.lines.count == 4)
            for (upper, lower) in zip(layout.lines, layout.lines.dropFirst()) { #expect(lower.top == upper.bottom) }
        }
        #expect(absolute.lines.allSatisfy { $0.height == 30 })
        #expect(abs(double.lines[0].height - 2 * natural.lines[0].height) < 1e-9)
        // The extra leading is split evenly: the baseline moves down by half of it.
        let extra = absolute.lines[0].height - natural.lines[0].height
        #expect(abs((absolute.lines[0].baseline - absolute.lines[0].top) - (natural.lines[0].baseline + extra / 2)) < 1e-9)
    }

    @Test func insetsAndParagraphSpacing() {
        let insets = EdgeInsets(top: 10, left: 20, bottom: 30, right: 40)
        let layout = Fixtures.layout("first\nsecond", width: 200, insets: insets, paragraphSpacing: 8)
        #expect(layout.lines[0].top == 10 && layout.lines[0].x == 20)
        #expect(layout.lines[1].top == layout.lines[0].bottom + 8)
        #expect(layout.height == layout.lines[1].bottom + 30)
        // Selection over both paragraphs tiles across the spacing.
        let rects = layout.selectionRects(for: 0..<12)
        #expect(rects.count == 2 && rects[0].maxY == rects[1].minY)
    }

    @Test func attachmentAfterLastWordMovesWithIt() {
        let text = "Tap the cat to see it dance"
        let oneLine = Fixtures.layout(text, width: 1000)
        let width = oneLine.lines[0].width + 5
        #expect(Fixtures.layout(text, width: width).lines.count == 1)
        let animation = InlineAttachment(name: "cat.gif", offset: text.utf16.count, width: 30, height: 30)
        let layout = Fixtures.layout(text, width: width, attachments: [animation])
        #expect(Fixtures.lineTexts(layout) == ["Tap the cat to see it ", "dance"])
        let frame = layout.attachmentFrames[0]
        let last = layout.lines[1]
        #expect(last.attachments == 0..<1)
        #expect(frame.minX == layout.caretX(at: text.utf16.count - 1) + layout.graphemeWidth(layout.shaped.graphemeCount - 1))
        #expect(frame.maxY == last.baseline && frame.height == 30)
        #expect(last.height >= 30)
        // Tapping it reports it; the last sentence's highlight covers it.
        let hit = layout.hitTest(x: frame.midX, y: frame.midY)
        #expect(hit.attachment == 0 && hit.offset == text.utf16.count)
        let rects = layout.selectionRects(for: 19..<text.utf16.count)
        #expect(rects.last?.maxX == frame.maxX)
    }

    @Test func attachmentAfterSpaceStartsItsOwnSegment() {
        let text = "Tap the cat "
        let box = InlineAttachment(name: "box", offset: text.utf16.count, width: 30, height: 10, baselineOffset: 4)
        let layout = Fixtures.layout(text, width: 1000, attachments: [box])
        #expect(layout.lines.count == 1)
        #expect(layout.attachmentFrames[0].maxY == layout.lines[0].baseline + 4)
        #expect(layout.caretRect(at: text.utf16.count).midX == layout.attachmentFrames[0].minX)
    }
}
