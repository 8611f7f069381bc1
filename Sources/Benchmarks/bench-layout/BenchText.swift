// BenchText.swift: deterministic mixed Korean/English/Russian text of a given UTF-8 size, with its sentences.

import LecternRandom

/// A benchmark text and the UTF-16 ranges of its sentences.
struct BenchText {
    let text: String
    let sentences: [Range<Int>]

    private static let english = [
        "the", "reader", "taps", "a", "sentence", "and", "sees", "it", "highlighted", "on", "every", "screen",
        "while", "lines", "wrap", "around", "quickly", "without", "waiting", "for", "layout", "fonts", "shape",
    ]
    private static let korean = [
        "독자가", "문장을", "누르면", "모든", "화면에서", "강조됩니다", "줄이", "바뀌고", "글꼴이", "빠르게",
        "그리고", "오늘", "책을", "읽습니다", "한국어", "텍스트",
    ]
    private static let russian = [
        "читатель", "касается", "предложения", "и", "видит", "его", "выделенным", "на", "каждом", "экране",
        "строки", "переносятся", "быстро", "без", "ожидания", "шрифты",
    ]

    /// About `utf8Bytes` bytes (never more) of sentences of 6–14 words, each in
    /// one of the three languages or mixed, 3–6 sentences per paragraph.
    init(utf8Bytes: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var text = ""
        var bytes = 0
        var sentences: [Range<Int>] = []
        var utf16 = 0
        var sentencesInParagraph = 0
        while true {
            let lists = [Self.english, Self.korean, Self.russian]
            let language = random.next(4)
            var words: [String] = []
            for _ in 0..<(6 + random.next(9)) {
                let list = language < 3 ? lists[language] : lists[random.next(3)]
                words.append(list[random.next(list.count)])
            }
            var sentence = words.joined(separator: " ") + "."
            sentence = sentence.prefix(1).uppercased() + sentence.dropFirst()
            sentencesInParagraph += 1
            let separator = sentencesInParagraph >= 3 + random.next(4) ? "\n" : " "
            if separator == "\n" { sentencesInParagraph = 0 }
            let piece = sentence + separator
            guard bytes + piece.utf8.count <= utf8Bytes else { break }
            let length = piece.utf16.count
            sentences.append(utf16..<(utf16 + length))
            text += piece
            utf16 += length
            bytes += piece.utf8.count
        }
        self.text = text
        self.sentences = sentences
    }
}

extension SplitMix64 {
    /// Uniform in 0..<bound (bound > 0).
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// Uniform in 0..<bound.
    mutating func nextDouble(_ bound: Double) -> Double { Double(next() >> 11) / Double(1 << 53) * bound }
}
