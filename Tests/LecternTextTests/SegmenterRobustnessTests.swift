// SegmenterRobustnessTests.swift: random punctuation-heavy text in every
// language and mode must give a well-formed table (and never trap).
import LecternText
import Testing

@Test(arguments: ["en", "ru", "ko", "ja", "zh", "de", "fr", "es", "und"])
func randomTextGivesWellFormedTables(_ code: String) {
    let pool: [String] = [
        "a", "B", "ж", "Д", "한", "다", "요", "까", "ㅋ", "漢", "。", "！", "？", ".", "!", "?", "…", " ", "  ",
        "\n", "\r\n", "\r", "\u{2029}", "\u{2028}", "\"", "'", "“", "”", "«", "»", "「", "」", "(", ")", "[", "]",
        "¿", "¡", "1", "2.", "3)", ":)", ";-(", ")))", "😍", "✔", "=P", "•", "Mr", "U.S", "т", "е", "👍🏽", "e\u{301}", "~", "^", "-", "—", "[12]",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
        var string = ""
        for _ in 0..<Int.random(in: 0...60, using: &generator) {
            string += pool[Int.random(in: 0..<pool.count, using: &generator)]
        }
        let document = DocumentText(string)
        for mode in SentenceMode.allCases {
            let table = SentenceTable(document: document, mode: mode, language: Language(code))
            var expectedStart = 0
            for sentence in table {
                #expect(sentence.range.lowerBound == expectedStart)
                #expect(!sentence.range.isEmpty)
                #expect(sentence.range.contains(sentence.content.lowerBound) || sentence.content.isEmpty)
                #expect(sentence.content.upperBound <= sentence.range.upperBound)
                let paragraph = document.paragraphs[sentence.paragraph].range
                #expect(paragraph.lowerBound <= sentence.range.lowerBound && sentence.range.upperBound <= paragraph.upperBound)
                expectedStart = sentence.range.upperBound
            }
            #expect(expectedStart == document.utf16.count)
        }
    }
}

/// Inputs built to make a careless scanner quadratic: each must segment in
/// one pass (a quadratic scan would take minutes here, not milliseconds).
@Test(arguments: [". - ", "다 ㅋ ", "((((.", "! ", "a.", "“ ", "1. ", "…", "다ㅋ ", "[1]. ",
                  ":) A", "ab😍 ", "ab))) ", "^^^^", "¿a?, ", "¡ab! ", "ab. cd "])
func pathologicalInputsStayLinear(_ piece: String) {
    let text = String(repeating: piece, count: 50_000)
    for code in ["en", "ko", "ja"] {
        let table = SentenceTable(document: DocumentText(text), mode: .reader, language: Language(code))
        #expect(table.last?.range.upperBound == text.utf16.count)
    }
}
