import Foundation
import LecternRandom
@testable import LecternLayout

/// Random paragraphs of words in the scripts Lectern must handle.
enum RandomTexts {
    static let words = [
        "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog.", "Reading", "is", "fun,", "isn't", "it?",
        "antidisestablishmentarianism", "a", "I", "word-break", "(quoted)", "“smart”", "42", "3.14",
        "한국어", "텍스트를", "줄바꿈합니다.", "다음", "문장", "읽기", "좋아요!",
        "Съешь", "же", "ещё", "этих", "мягких", "французских", "булок.",
        "日本語の", "文章を", "折り返します。", "東京", "カタカナ",
        "😀", "👍🏽", "🇰🇷", "❤️", "e\u{301}té", "naïve",
    ]
    static let rightToLeftWords = ["שלום", "עולם", "ספר", "مرحبا", "بالعالم", "كتاب", "(123)"]
    static let separators = [" ", " ", " ", " ", "  ", "\n", "\r\n", "\u{2029}", " "]

    static func text(using generator: inout SplitMix64, maxWords: Int = 40, rightToLeft: Bool = false) -> String {
        let pool = rightToLeft ? words + rightToLeftWords + rightToLeftWords : words
        let count = Int.random(in: 0...maxWords, using: &generator)
        var text = ""
        for i in 0..<count {
            if i > 0 { text += separators.randomElement(using: &generator) ?? " " }
            text += pool.randomElement(using: &generator) ?? "x"
        }
        if Bool.random(using: &generator) { text += separators.randomElement(using: &generator) ?? "" }
        return text
    }

    /// Cuts 0..<length into consecutive ranges at random grapheme boundaries.
    static func partition(_ shaped: ShapedText, using generator: inout SplitMix64) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for g in 1..<max(1, shaped.graphemeCount) where Int.random(in: 0..<6, using: &generator) == 0 {
            let boundary = shaped.graphemeRange(g).lowerBound
            ranges.append(start..<boundary)
            start = boundary
        }
        if start < shaped.utf16Count { ranges.append(start..<shaped.utf16Count) }
        return ranges
    }
}
