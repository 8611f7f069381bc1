// Sentence.swift: one row of a document's sentence table.

/// A sentence: `sentence 0 range=0..35 content=0..34 paragraph=0 text="…"`.
public struct Sentence: Hashable, Sendable {
    /// Its number, from 0 in text order.
    public var number: Int
    /// The sentence with the whitespace after it; the ranges of all
    /// sentences tile the text.
    public var range: Range<Int>
    /// The sentence without that whitespace: what highlights cover.
    public var content: Range<Int>
    /// The paragraph it belongs to, from 0.
    public var paragraph: Int
    /// The content's text.
    public var text: String

    init(_ fields: ReplyFields) throws {
        guard try fields.word(at: 0) == "sentence" else { throw fields.malformed("not a sentence line") }
        number = try fields.int(at: 1)
        range = try fields.range("range")
        content = try fields.range("content")
        paragraph = try fields.int("paragraph")
        text = try fields.string("text")
    }
}
