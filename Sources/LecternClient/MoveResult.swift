// MoveResult.swift: MOVE's reply.

/// MOVE's reply: COPY's figures and the source's new revision.
public struct MoveResult: Hashable, Sendable {
    /// Sentences moved to ``target``.
    public var sentences: Int
    /// The document they went to.
    public var target: String
    /// ``target``'s revision after the append.
    public var revision: Int
    /// The source document's revision after the removal.
    public var sourceRevision: Int

    init(_ fields: ReplyFields) throws {
        let copy = try CopyResult(fields)
        sentences = copy.sentences
        target = copy.target
        revision = copy.revision
        sourceRevision = try fields.int("source-revision")
    }
}
