// SentenceBreakConformanceTests.swift: uax29 mode against Unicode's own
// SentenceBreakTest.txt (Debian unicode-data), every line a case.
import Foundation
import LecternText
import Testing

/// One line of SentenceBreakTest.txt: scalars and the expected boundaries
/// (in scalar offsets), e.g. "÷ 0041 × 002E ÷ 0020 ÷".
struct SentenceBreakCase: CustomTestStringConvertible, Sendable {
    let line: Int
    let scalars: [Unicode.Scalar]
    let boundaries: [Int]
    var testDescription: String { "SentenceBreakTest.txt:\(line)" }

    static let path = "/usr/share/unicode/auxiliary/SentenceBreakTest.txt"

    static func all() -> [SentenceBreakCase] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var cases: [SentenceBreakCase] = []
        for (index, rawLine) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let body = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = body.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard !fields.isEmpty else { continue }
            var scalars: [Unicode.Scalar] = []
            var boundaries: [Int] = []
            for field in fields {
                if field == "÷" { boundaries.append(scalars.count) }
                else if field == "×" { continue }
                else if let value = UInt32(field, radix: 16), let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
            cases.append(SentenceBreakCase(line: index + 1, scalars: scalars, boundaries: boundaries))
        }
        return cases
    }
}

@Test func conformanceFileIsPresent() {
    #expect(SentenceBreakCase.all().count > 500)
}

@Test(arguments: SentenceBreakCase.all())
func uax29ModeMatchesSentenceBreakTest(_ testCase: SentenceBreakCase) throws {
    var string = ""
    string.unicodeScalars.append(contentsOf: testCase.scalars)
    let document = DocumentText(string)
    let table = SentenceTable(document: document, mode: .uax29)
    var boundaries = table.map(\.range.lowerBound)
    boundaries.append(document.utf16.count)
    let scalarBoundaries = try boundaries.map { try document.indexMap.offset(ofUTF16: $0, in: .scalar) }
    #expect(scalarBoundaries == testCase.boundaries)
}
