// SelectResult.swift: what SELECT did to this connection's selection.

/// The outcome of toggling the sentence under a point.
public enum SelectResult: Hashable, Sendable {
    /// The sentence was added; `selectedCount` sentences are selected now.
    case added(Highlight, selectedCount: Int)
    /// The sentence was removed; `selectedCount` sentences are selected now.
    case removed(Highlight, selectedCount: Int)
    /// The point is `distance` points off the text; nothing changed.
    case miss(distance: Double)

    init(_ reply: Reply) throws {
        let fields = try reply.fields()
        switch try fields.word(at: 1) {
        case "added":
            self = .added(try Highlight.one(in: reply.dataFields()), selectedCount: try fields.int("selected"))
        case "removed":
            self = .removed(try Highlight.one(in: reply.dataFields()), selectedCount: try fields.int("selected"))
        case "miss":
            self = .miss(distance: try fields.double("distance"))
        default:
            throw fields.malformed("unknown SELECT outcome")
        }
    }
}

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
