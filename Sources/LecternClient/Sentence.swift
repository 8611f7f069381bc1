// Sentence.swift: one row of a document's sentence table.

/// A sentence: `sentence 0 range=0..35 content=0..34 paragraph=0 lang=en text="…"`.
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
    /// Its paragraph's language (a BCP 47 tag: the hint given at PUT, or
    /// the code detected for the paragraph), as SENTENCES reports it; nil
    /// from replies that leave it out (TAP, RECTS, highlights) and from a
    /// daemon older than the field.
    public var language: String?
    /// The content's text.
    public var text: String

    init(_ fields: ReplyFields) throws {
        guard try fields.word(at: 0) == "sentence" else { throw fields.malformed("not a sentence line") }
        number = try fields.int(at: 1)
        range = try fields.range("range")
        content = try fields.range("content")
        paragraph = try fields.int("paragraph")
        language = try fields.optional(fields.string, "lang")
        text = try fields.string("text")
    }
}
