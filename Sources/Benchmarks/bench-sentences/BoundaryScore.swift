// BoundaryScore.swift: exact matches and boundary precision/recall/F1.

/// Boundaries are counted in the text with all white space removed, so a
/// boundary before or after a space is the same boundary, and the end of a
/// paragraph is not counted (the kss README's scoring, used for every set).
struct BoundaryScore {
    var truePositives = 0
    var falsePositives = 0
    var falseNegatives = 0
    var exact = 0
    var paragraphs = 0

    mutating func add(predicted: Set<Int>, gold: Set<Int>) {
        truePositives += predicted.intersection(gold).count
        falsePositives += predicted.subtracting(gold).count
        falseNegatives += gold.subtracting(predicted).count
        exact += predicted == gold ? 1 : 0
        paragraphs += 1
    }

    var precision: Double { ratio(truePositives, truePositives + falsePositives) }
    var recall: Double { ratio(truePositives, truePositives + falseNegatives) }
    var f1: Double { precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0 }

    private func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? 1 : Double(a) / Double(b) }

    /// Gold boundaries: non-white-space scalars before the end of each
    /// sentence but the last.
    static func boundaries(ofSentences sentences: [String]) -> Set<Int> {
        var result: Set<Int> = []
        var count = 0
        for sentence in sentences.dropLast() {
            count += sentence.unicodeScalars.filter { !$0.properties.isWhitespace }.count
            result.insert(count)
        }
        return result
    }

    /// Predicted boundaries: UTF-16 offsets inside `utf16`, converted to
    /// counts of non-white-space scalars before them; the end is dropped.
    static func boundaries(atUTF16 offsets: [Int], in utf16: [UInt16]) -> Set<Int> {
        var prefix = [Int](repeating: 0, count: utf16.count + 1)
        var count = 0
        for (i, unit) in utf16.enumerated() {
            prefix[i] = count
            let isLowSurrogate = unit & 0xFC00 == 0xDC00
            if !isLowSurrogate, !(Unicode.Scalar(unit)?.properties.isWhitespace ?? false) { count += 1 }
        }
        prefix[utf16.count] = count
        return Set(offsets.filter { $0 > 0 && $0 < utf16.count }.map { prefix[$0] }.filter { $0 < count })
    }
}
