import Testing
@testable import LecternLayout

@Suite struct SmokeTests {
    @Test func prints() {
        for text in ["The quick brown fox jumps over the lazy dog. Pack my box.", "한국어 텍스트를 줄바꿈합니다. 다음 문장.", "Съешь же ещё этих мягких французских булок.", "日本語の文章を折り返します。次の文。", "Hi 😀 there 👍🏽 ok", "abc\n\ndef\r\nghi"] {
            let layout = Fixtures.layout(text, width: 120)
            print(Fixtures.lineTexts(layout).map { "[\($0)]" }.joined(separator: " "), layout.lines.map { ($0.top, $0.height, $0.baseline, $0.width) }, layout.shaped.fonts.map(\.family))
        }
    }
}
