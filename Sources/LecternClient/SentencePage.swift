// SentencePage.swift: some sentences of a document, from SENTENCES.

/// Some sentences of a document, and how many it has in all.
public struct SentencePage: Hashable, Sendable {
    /// The sentences asked for, in order.
    public var sentences: [Sentence]
    /// The document's number of sentences.
    public var total: Int
}
