// CopyResult.swift: COPY's reply.

/// COPY's reply: how many sentences went to which document, and its new revision.
public struct CopyResult: Hashable, Sendable {
    /// Sentences appended to ``target``.
    public var sentences: Int
    /// The document they went to.
    public var target: String
    /// ``target``'s revision after the append.
    public var revision: Int

    init(_ fields: ReplyFields) throws {
        sentences = try fields.int("sentences")
        target = try fields.string("to")
        revision = try fields.int("revision")
    }
}
