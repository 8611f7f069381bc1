import LecternRandom
import Testing
@testable import LecternLayout

/// Properties of inline attachments and of shaping off the loop thread.
@Suite struct AttachmentAndConcurrencyPropertyTests {
    @Test func attachmentAfterLastWordStaysWithIt() {
        var generator = SplitMix64(seed: 6)
        var checked = 0
        for _ in 0..<LayoutPropertyTests.iterations {
            var text = RandomTexts.text(using: &generator)
            while let last = text.unicodeScalars.last, last.properties.isWhitespace { text.unicodeScalars.removeLast() }
            guard !text.isEmpty, !text.contains(where: { "\u{5D0}" <= $0 && $0 <= "\u{6FF}" }) else { continue }
            let width = Double.random(in: 40...420, using: &generator).rounded()
            let animation = InlineAttachment(name: "anim", offset: text.utf16.count, width: 30, height: 30)
            let layout = Fixtures.layout(text, width: width, attachments: [animation])
            let lastGrapheme = layout.shaped.graphemeCount - 1
            let lineOfWord = layout.lines[layout.lineIndex(containing: layout.shaped.graphemeRange(lastGrapheme).lowerBound)]
            checked += 1
            let end = layout.graphemeX[lastGrapheme] + layout.graphemeWidth(lastGrapheme)
            if lineOfWord.attachments == 0..<1 {
                // Together: the box follows the last grapheme directly.
                #expect(layout.attachmentFrames[0].minX == end, "\(text.debugDescription) at \(width)")
            } else {
                // Apart only when even the word's own line has no room for the box:
                // then the box gets a line of its own, right after it.
                #expect(lineOfWord.width + 30 > layout.spec.lineWidth, "\(text.debugDescription) at \(width)")
                #expect(layout.lines.last?.attachments == 0..<1 && layout.lines.last?.graphemes.isEmpty == true)
            }
        }
        #expect(checked > 100)
    }

    @Test func shapingOnWorkerThreadsMatchesTheLoopThread() async {
        let text = String(repeating: "Reading 한국어 Съешь 日本語 😀. ", count: 30)
        let reference = Fixtures.shaper.shape(text, spec: Fixtures.dejaVu)
        let results = await withTaskGroup(of: [Float].self) { group in
            for _ in 0..<8 {
                group.addTask { Fixtures.shaper.shape(text, spec: Fixtures.dejaVu).advances }
            }
            var all: [[Float]] = []
            for await advances in group { all.append(advances) }
            return all
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == reference.advances })
    }
}
