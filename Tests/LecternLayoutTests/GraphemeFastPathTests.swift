import LecternRandom
import Testing
@testable import LecternLayout

@Suite struct GraphemeFastPathTests {
    /// Every character the fast path accepts, in order, shuffled, and mixed
    /// with CR/LF: ICU's UAX #29 iterator must find the same boundaries.
    @Test func agreesWithICUOnEveryAcceptedCharacter() {
        let accepted = (UInt16(0)...UInt16(0xFFFF)).filter { TextAnalysis.isSimpleGrapheme($0) }
        #expect(accepted.count > 30_000)
        var generator = SplitMix64(seed: 9)
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
