// DocumentInfo.swift: a document's facts, as PUT, GET and LIST report them.

/// A document's facts: `id=intro revision=1 bytes=48 length=48 sentences=2
/// paragraphs=1 lang=pt-BR languages=pt-BR rules=pt mode=reader attachments=0`.
public struct DocumentInfo: Hashable, Sendable {
    /// The document id.
    public var id: String
    /// Bumped by every change to the text or attachments.
    public var revision: Int
    /// Size of the text in UTF-8 bytes.
    public var bytes: Int
    /// Length of the text in the connection's offset unit.
    public var length: Int
    /// Number of sentences.
    public var sentences: Int
    /// Number of paragraphs.
    public var paragraphs: Int
    /// The document's language: the BCP 47 tag given as the hint (in
    /// canonical case, `pt-BR`), or else the language of most of the text.
    public var language: String
    /// The paragraphs' languages, each once, in order of first appearance
    /// (each paragraph's comes from its script and words, the hint where
    /// the script cannot tell). Empty from a daemon older than the field.
    public var languages: [String]
    /// Which sentence rules apply: the language's primary subtag when
    /// Lectern has rules for it (`pt` for `pt-BR`), `generic` when it has
    /// none, `uax29` with ``SegmentationMode/uax29``. Nil from a daemon
    /// older than the field.
    public var rules: String?
    /// How the text is split into sentences.
    public var mode: SegmentationMode
    /// Number of inline attachments.
    public var attachments: Int

    init(_ fields: ReplyFields) throws {
        id = try fields.string("id")
        revision = try fields.int("revision")
        bytes = try fields.int("bytes")
        length = try fields.int("length")
        sentences = try fields.int("sentences")
        paragraphs = try fields.int("paragraphs")
        language = try fields.string("lang")
        languages = try fields.optional(fields.string, "languages")
            .map { $0.split(separator: ",").map(String.init) } ?? []
        rules = try fields.optional(fields.string, "rules")
        mode = try fields.word("mode", as: SegmentationMode.self)
        attachments = try fields.int("attachments")
    }
}
