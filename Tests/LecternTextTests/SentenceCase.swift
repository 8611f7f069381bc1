// SentenceCase.swift: the reader-mode cases the rule suites share: a
// language and the sentences its rules must find in their joined text.
import LecternText
import Testing

/// The sentences reader mode finds in `text` with the rules of `code`, as
/// trimmed content strings.
func readerSentences(_ text: String, _ code: String) -> [String] {
    let document = DocumentText(text)
    let table = SentenceTable(document: document, mode: .reader, language: Language(code))
    return table.map { document.text(in: $0.content) }
}

/// Sentences in one language that reader mode must find, exactly, in their
/// text joined by `separator` (a space; nothing in Chinese and Japanese).
struct SentenceCase: CustomTestStringConvertible, Sendable {
    let language: String
    let sentences: [String]
    let separator: String
    init(_ language: String, _ sentences: [String], separator: String = " ") {
        self.language = language
        self.sentences = sentences
        self.separator = separator
    }
    var testDescription: String { "\(language): \(sentences.joined(separator: " ‖ "))" }

    /// Expects reader mode to split the joined text into ``sentences``.
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(readerSentences(sentences.joined(separator: separator), language) == sentences,
                sourceLocation: sourceLocation)
    }
}
