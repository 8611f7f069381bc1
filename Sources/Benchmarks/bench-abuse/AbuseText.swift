// AbuseText.swift: the deterministic documents the abuses put.

/// Plain ASCII English, generated rather than stored, the same on every
/// run: every byte is one UTF-16 unit and one grapheme.
enum AbuseText {
    private static let subjects = ["The keeper", "A traveller", "The old clock", "Her brother", "The river", "A letter", "The lamp", "Nobody"]
    private static let verbs = ["watched", "remembered", "carried", "forgot", "mended", "counted", "followed", "answered"]
    private static let objects = ["the grey fields", "every shutter", "the last bridge", "a quiet song", "the eleven roofs", "the open window", "its patient knocks", "the morning"]

    /// Prose of at least `bytes` bytes: numbered sentences of 50 to 70
    /// bytes, six to a paragraph, so a 200 KB document has about 3,500
    /// sentences and each sentence is easy to tell from the next.
    static func prose(bytes: Int) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(bytes + 100)
        var n = 0
        while text.count < bytes {
            if n > 0 { text.append(n % 6 == 0 ? 0x0A : 0x20) }
            let sentence = "\(subjects[n % 8]) \(verbs[(n / 8) % 8]) \(objects[(n * 5) % 8]) in part \(n)."
            text.append(contentsOf: sentence.utf8)
            n += 1
        }
        return text
    }

    /// `count` one-line paragraphs of one short sentence each
    /// ("Line 17 stands alone."), for abuses that address sentences by
    /// their line: in a view with a fixed line height and no insets,
    /// sentence k is under y = (k + 0.5) × height.
    static func oneSentencePerLine(count: Int) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(count * 24)
        for k in 0..<count {
            if k > 0 { text.append(0x0A) }
            text.append(contentsOf: "Line \(k) stands alone.".utf8)
        }
        return text
    }
}
