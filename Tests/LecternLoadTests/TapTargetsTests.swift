// TapTargetsTests.swift: points on letters, from a real LINES reply.

import Testing
@testable import lectern_load

@Suite struct TapTargetsTests {
    // From protocol/transcripts/04-views-and-taps.txt: "Dr. Smith arrived at 5 p.m. today. He was late! Nobody minded."
    // laid out 200 points wide; line 0 is "Dr. Smith arrived at 5 " (its last space hangs past the width).
    static let text = "Dr. Smith arrived at 5 p.m. today. He was late! Nobody minded."
    static let reply = Reply(dataLines: [
        "* line 0 range=0..23 top=0 baseline=15.78 height=19.79 x=0 width=183.08 paragraph=0 carets=0,13.09,18.52,23.92,29.33,40.12,56.68,61.4,68.07,78.84,84.24,94.66,101.35,108.34,113.06,123.13,133.58,144.38,149.78,160.2,166.86,172.27,183.08,188.49",
        "* line 1 range=23..42 top=19.79 baseline=35.57 height=19.79 x=0 width=162.11 paragraph=0 carets=0,10.79,16.19,32.75,38.16,43.56,50.23,60.63,71.42,81.84,89.47,94.88,100.28,113.06,123.52,128.93,142.83,153.25,162.11,167.51",
    ].map { Array($0.utf8) }, finalLine: Array("OK LINES 3".utf8))

    @Test func onePointPerLetterInTheMiddleOfItsLine() {
        let targets = TapTargets(linesReply: Self.reply, text: Self.text)
        let letters = Self.text.utf8.prefix(42).filter { $0 != UInt8(ascii: " ") }.count
        #expect(targets.points.count == letters)
        // "D" spans 0..13.09 on line 0; "p" of "p.m." starts line 1.
        #expect(targets.points.first == TapTargets.Point(x: 6.545, y: 9.895))
        #expect(targets.points.contains(TapTargets.Point(x: 5.395, y: 29.685)))
        #expect(targets.points.allSatisfy { $0.x < 183.08 })
        #expect(targets.points.first?.wire == "6.54 9.89" || targets.points.first?.wire == "6.55 9.9")
    }

    @Test func linesWithoutFieldsGiveNoPoints() {
        let reply = Reply(dataLines: [Array("* line 0 range=0..3".utf8)], finalLine: Array("OK LINES 1".utf8))
        #expect(TapTargets(linesReply: reply, text: "abc").isEmpty)
    }
}
