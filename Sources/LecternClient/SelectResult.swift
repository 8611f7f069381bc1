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
