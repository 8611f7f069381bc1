// SegmentationSample.swift: the plain-text format of Lectern's golden
// sentence sets, shared by the tests and the bench-sentences program.

/// A paragraph with the sentences a reader expects, for evaluation.
///
/// The format is line based, so that sets are easy to read and review:
///
/// ```text
/// # a comment
/// @en initials and titles        ← language, then an optional note
/// > Dr. J. R. R. Tolkien wrote it. It sold.
/// | Dr. J. R. R. Tolkien wrote it.
/// | It sold.
/// ```
///
/// Each `>` line starts a sample in the language of the last `@` line; each
/// following `|` line is one expected sentence (content, without the white
/// space between sentences). Blank lines are ignored.
public struct SegmentationSample: Sendable {
    public let language: Language
    public let note: String
    public let paragraph: String
    public let sentences: [String]
    /// 1-based line of the `>` line, for messages.
    public let line: Int

    public init(language: Language, note: String, paragraph: String, sentences: [String], line: Int) {
        self.language = language
        self.note = note
        self.paragraph = paragraph
        self.sentences = sentences
        self.line = line
    }

    /// Parses samples; malformed lines are skipped.
    /// - Complexity: O(n).
    public static func parse(_ text: String) -> [SegmentationSample] {
        var samples: [SegmentationSample] = []
        var language = Language.undetermined
        var note = ""
        var paragraph: (text: String, line: Int)?
        var sentences: [String] = []
        func flush() {
            if let open = paragraph {
                samples.append(SegmentationSample(language: language, note: note, paragraph: open.text,
                                                  sentences: sentences, line: open.line))
            }
            paragraph = nil
            sentences = []
        }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("@") {
                flush()
                let header = line.dropFirst().split(separator: " ", maxSplits: 1)
                language = Language(String(header.first ?? "und"))
                note = header.count > 1 ? String(header[1]) : ""
            } else if line.hasPrefix("> ") {
                flush()
                paragraph = (String(line.dropFirst(2)), index + 1)
            } else if line.hasPrefix("| ") {
                sentences.append(String(line.dropFirst(2)))
            }
        }
        flush()
        return samples
    }
}
