// TapResult.swift: what is under a point, from TAP.

/// What a tap found: a sentence, an inline attachment, or nothing near enough.
public enum TapResult: Hashable, Sendable {
    /// A sentence, with its highlight; `offset` is the caret position nearest
    /// the point, `side` the half of the character hit, `distance` how far
    /// the point was from the text (0 on it; up to the slop otherwise).
    case hit(Highlight, offset: Int, side: CaretSide, distance: Double)
    /// An inline attachment (see ``LecternConnection/attach(_:name:at:width:height:baseline:)``).
    case attachment(name: String, offset: Int, rect: Rect)
    /// Off the text by `distance` points; `nearestSentence` is the closest one.
    case miss(distance: Double, nearestSentence: Int)

    /// The highlight of a ``hit(_:offset:side:distance:)``, else `nil`.
    public var highlight: Highlight? {
        if case .hit(let highlight, _, _, _) = self { return highlight }
        return nil
    }

    init(_ reply: Reply) throws {
        let fields = try reply.fields()
        switch try fields.word(at: 1) {
        case "hit":
            self = .hit(
                try Highlight.one(in: reply.dataFields()), offset: try fields.int("offset"),
                side: try fields.word("side", as: CaretSide.self),
                distance: try fields.double("distance"))
        case "attachment":
            self = .attachment(name: try fields.string("name"), offset: try fields.int("offset"), rect: try fields.rect("rect"))
        case "miss":
            self = .miss(distance: try fields.double("distance"), nearestSentence: try fields.int("nearest"))
        default:
            throw fields.malformed("unknown TAP outcome")
        }
    }
}
