// Sentence.swift: one row of a sentence table.

/// One sentence of a document, in UTF-16 offsets.
public struct Sentence: Equatable, Hashable, Sendable {
    /// Position in the table, from 0.
    public let number: Int
    /// The sentence with its trailing whitespace (and, for the last sentence of
    /// a paragraph, the paragraph separator). Ranges of consecutive sentences
    /// touch, and together cover the document.
    public let range: Range<Int>
    /// The sentence without leading or trailing white space (Unicode
    /// White_Space). Empty only for a blank paragraph, at its start.
    public let content: Range<Int>
    /// Index of the paragraph the sentence lies in (in `DocumentText.paragraphs`).
    public let paragraph: Int

    public init(number: Int, range: Range<Int>, content: Range<Int>, paragraph: Int) {
        self.number = number
        self.range = range
        self.content = content
        self.paragraph = paragraph
    }
}
