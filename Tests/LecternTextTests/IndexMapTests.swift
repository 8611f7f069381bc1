// IndexMapTests.swift: offset conversion between units, checked against
// Swift's own String views.
import LecternText
import Testing

/// Every boundary of every unit, computed the slow way from String views:
/// for each unit, UTF-16 offset → offset in that unit.
private func expectedBoundaries(_ string: String) -> [OffsetUnit: [Int: Int]] {
    var scalars: [Int: Int] = [:], utf8: [Int: Int] = [:], graphemes: [Int: Int] = [:], utf16: [Int: Int] = [:]
    var offset = 0, bytes = 0, count = 0
    for scalar in string.unicodeScalars {
        scalars[offset] = count
        utf8[offset] = bytes
        offset += scalar.utf16.count
        bytes += scalar.utf8.count
        count += 1
    }
    scalars[offset] = count
    utf8[offset] = bytes
    var characterOffset = 0
    for (index, character) in string.enumerated() {
        graphemes[characterOffset] = index
        characterOffset += character.utf16.count
    }
    graphemes[characterOffset] = string.count
    for k in 0...offset { utf16[k] = k }
    return [.utf16: utf16, .utf8: utf8, .scalar: scalars, .grapheme: graphemes]
}

private let samples = [
    "", "plain ascii", "é and e\u{301}", "👍🏽 thumbs 👨‍👩‍👧", "🇰🇷🇯🇵 flags", "한국어 텍스트",
    "\r\n CRLF \r\n", "x\u{0915}\u{094D}\u{0937}y", "Привет, мир!", "\u{10FFFF}z",
    "가\u{1161}\u{11A8}각 \u{1100}가", "x\u{0600}a b", "©\u{FE0F} ‼\u{FE0F}", "a\r\u{0301}\n\u{0301}",
    "ä\u{0308}Ж\u{0483}漢\u{3099}か\u{3099}", "\u{00AD}\u{0301}\u{200D}x", "e\u{0301}\u{200D}👍",
]

@Test(arguments: samples)
func convertsEveryBoundaryAndRejectsTheRest(_ string: String) throws {
    let document = DocumentText(string)
    let map = document.indexMap
    let expected = expectedBoundaries(string)
    let length = document.utf16.count
    for unit in OffsetUnit.allCases {
        let boundaries = expected[unit] ?? [:]
        #expect(map.length(in: unit) == boundaries.values.max() ?? 0)
        for u16 in 0...length {
            if let value = boundaries[u16] {
                #expect(try map.offset(ofUTF16: u16, in: unit) == value)
                #expect(try map.utf16Offset(of: value, in: unit) == u16)
            } else {
                #expect(throws: OffsetError.self) { try map.offset(ofUTF16: u16, in: unit) }
            }
        }
    }
}

@Test func utf8OffsetsInsideASequenceAreInvalid() {
    let map = DocumentText("aé€👍").indexMap   // bytes: 1, 2, 3, 4
    #expect(throws: OffsetError.notOnBoundary(offset: 2, unit: .utf8)) { try map.utf16Offset(of: 2, in: .utf8) }
    #expect(throws: OffsetError.notOnBoundary(offset: 5, unit: .utf8)) { try map.utf16Offset(of: 5, in: .utf8) }
    #expect(throws: OffsetError.notOnBoundary(offset: 8, unit: .utf8)) { try map.utf16Offset(of: 8, in: .utf8) }
    #expect(throws: OffsetError.notOnBoundary(offset: 4, unit: .utf16)) { try map.offset(ofUTF16: 4, in: .scalar) }
    #expect(throws: OffsetError.outOfBounds(offset: 11, unit: .utf8, length: 10)) { try map.utf16Offset(of: 11, in: .utf8) }
    #expect(throws: OffsetError.outOfBounds(offset: -1, unit: .utf16, length: 5)) { try map.offset(ofUTF16: -1, in: .utf8) }
}

@Test func convertsBetweenNonCanonicalUnits() throws {
    let map = DocumentText("e\u{301}👍x").indexMap
    #expect(try map.convert(2, from: .grapheme, to: .utf8) == 7)
    #expect(try map.convert(1, from: .grapheme, to: .scalar) == 2)
    #expect(try map.convert(0..<2, from: .grapheme, to: .utf16) == 0..<4)
    #expect(throws: OffsetError.notOnBoundary(offset: 1, unit: .grapheme)) {
        try map.convert(1, from: .scalar, to: .grapheme)
    }
}

@Test func longMixedTextMatchesStringViews() throws {
    var string = ""
    let pieces = ["word ", "é", "e\u{301} ", "👍🏽", "한", "\r\n", "Ж", "🇰🇷", "abc. "]
    for k in 0..<3000 { string += pieces[(k * 7 + k / 5) % pieces.count] }
    let document = DocumentText(string)
    let expected = expectedBoundaries(string)
    for unit in OffsetUnit.allCases {
        for (u16, value) in expected[unit] ?? [:] where u16 % 13 == 0 {
            #expect(try document.indexMap.offset(ofUTF16: u16, in: unit) == value)
            #expect(try document.indexMap.utf16Offset(of: value, in: unit) == u16)
        }
    }
}

/// Random strings over scalars from every grapheme class, including the ones
/// the decoder's fast path treats as simple: the grapheme map must agree with
/// Swift's Characters everywhere.
@Test func randomTextGraphemesMatchSwiftCharacters() throws {
    let pool: [Unicode.Scalar] = [
        "a", " ", "\r", "\n", "\t", "\u{00AD}", "é", "\u{0301}", "\u{0308}", "Ж", "\u{0483}", "가", "각",
        "\u{1100}", "\u{1161}", "\u{11A8}", "漢", "か", "\u{3099}", "\u{3000}", "“", "‼", "\u{FE0F}", "©",
        "\u{200D}", "\u{200C}", "👍", "🏽", "🇰", "🇷", "\u{0600}", "\u{0915}", "\u{094D}", "\u{0937}",
        "\u{0E33}", "\u{1F1E6}", "ｶ", "\u{FF9E}", "\u{2028}", "\u{0085}", "!", ".", "0",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<300 {
        var string = ""
        for _ in 0..<Int.random(in: 0...40, using: &generator) {
            string.unicodeScalars.append(pool[Int.random(in: 0..<pool.count, using: &generator)])
        }
        let document = DocumentText(string)
        var expected: [Int] = [0]
        var offset = 0
        for character in string {
            offset += character.utf16.count
            expected.append(offset)
        }
        let actual = (0...document.utf16.count).filter {
            (try? document.indexMap.offset(ofUTF16: $0, in: .grapheme)) != nil
        }
        #expect(actual == expected, "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
    }
}

@Test func utf8OffsetsOfLongTextRoundTripAtEveryByte() throws {
    var string = ""
    let pieces = ["ascii words ", "한국어 ", "漢字", "👍🏽", "é", "\u{10FFFF}", "Ж"]
    for k in 0..<400 { string += pieces[(k * 5 + k / 3) % pieces.count] }
    let document = DocumentText(string)
    let bytes = Array(string.utf8)
    for byte in 0...bytes.count {
        let isBoundary = byte == bytes.count || bytes[byte] & 0xC0 != 0x80
        if isBoundary {
            let utf16 = try document.indexMap.utf16Offset(of: byte, in: .utf8)
            #expect(try document.indexMap.offset(ofUTF16: utf16, in: .utf8) == byte)
            #expect(String(decoding: bytes[..<byte], as: UTF8.self).utf16.count == utf16)
        } else {
            #expect(throws: OffsetError.notOnBoundary(offset: byte, unit: .utf8)) {
                try document.indexMap.utf16Offset(of: byte, in: .utf8)
            }
        }
    }
}

@Test func documentationExampleHolds() throws {
    let map = DocumentText("añ👍").indexMap
    #expect(try map.convert(2, from: .utf16, to: .utf8) == 3)
    #expect(try map.convert(3, from: .scalar, to: .utf16) == 4)
    #expect(throws: OffsetError.notOnBoundary(offset: 3, unit: .utf16)) { try map.convert(3, from: .utf16, to: .scalar) }
}
