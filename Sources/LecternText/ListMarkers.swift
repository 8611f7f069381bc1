// ListMarkers.swift: run-in list items ("1) milk 2) eggs", "• a • b"),
// each of which is a sentence.

/// Finds where run-in list items start inside one paragraph.
///
/// Only a paragraph that itself starts with a marker is a list, and later
/// markers must continue its sequence ("1." → "2." → "3.", "a)" → "b)"), or
/// repeat its bullet, preceded by white space and followed by it; so
/// "chapter 2. The" in running prose never splits.
enum ListMarkers {
    /// The start offsets of the second and later items, in order.
    static func itemStarts(in text: UnsafeBufferPointer<UInt16>, range: Range<Int>) -> [Int] {
        var first = range.lowerBound
        while first < range.upperBound, CharacterClass.isWhiteSpace(text[first]) { first += 1 }
        guard first < range.upperBound else { return [] }
        var starts: [Int] = []
        if isBullet(text[first]) {
            let bullet = text[first]
            for i in (first + 1)..<range.upperBound where text[i] == bullet && CharacterClass.isWhiteSpace(text[i - 1]) {
                starts.append(i)
            }
            return starts
        }
        guard let marker = Marker(text: text, at: first, limit: range.upperBound) else { return [] }
        var expected = marker.ordinal + 1
        var i = marker.end
        while i < range.upperBound {
            if CharacterClass.isWhiteSpace(text[i - 1]),
               let next = Marker(text: text, at: i, limit: range.upperBound),
               next.ordinal == expected, next.suffix == marker.suffix, next.isLetter == marker.isLetter {
                starts.append(i)
                expected += 1
                i = next.end
            } else {
                i += 1
            }
        }
        return starts
    }

    static func isBullet(_ u: UInt16) -> Bool {
        switch u {
        case 0x2022, 0x2043, 0x2023, 0x25E6, 0x25AA, 0x25CF, 0x25A0, 0x25A1, 0x2605, 0x2606, 0x27A2, 0x2713, 0x30FB,
             0x2714, 0x2705, 0x2611, 0x27A4, 0x25B6, 0x25BA, 0x27A1:   // ✔ ✅ ☑ ➤ ▶ ► ➡
            return true
        default:
            return false
        }
    }

    /// An ordinal marker: 1–3 digits or one ASCII letter, then ".", ")" or ".)",
    /// then white space.
    private struct Marker {
        let ordinal: Int
        let isLetter: Bool
        let suffix: UInt8   // 1 ".", 2 ")", 3 ".)"
        let end: Int

        init?(text: UnsafeBufferPointer<UInt16>, at start: Int, limit: Int) {
            var i = start
            var value = 0
            while i < limit, i - start < 3, CharacterClass.isDigit(text[i]) {
                value = value * 10 + Int(text[i] - 0x30)
                i += 1
            }
            if i == start {
                let u = text[i] | 0x20
                guard u >= 0x61, u <= 0x7A else { return nil }
                value = Int(u - 0x60)
                i += 1
                isLetter = true
            } else {
                isLetter = false
            }
            guard i < limit, !(i < limit && CharacterClass.isDigit(text[i])) else { return nil }
            if text[i] == 0x2E, i + 1 < limit, text[i + 1] == 0x29 { suffix = 3; i += 2 }
            else if text[i] == 0x2E { suffix = 1; i += 1 }
            else if text[i] == 0x29 { suffix = 2; i += 1 }
            else { return nil }
            guard i < limit, CharacterClass.isWhiteSpace(text[i]) else { return nil }
            // A letter ordinal must stand alone: "a." but not "Ba.".
            if isLetter, start > 0, CharacterClass.isLetter(UInt32(text[start - 1])) { return nil }
            ordinal = value
            end = i
        }
    }
}
