// TypewriterEvent.swift: the events of a typewriter stream (TYPE).

/// One event of a ``TypewriterStream``.
public enum TypewriterEvent: Hashable, Sendable {
    /// One more grapheme revealed.
    case tick(Tick)
    /// The reveal entered a new sentence (`follow: true` only), with its
    /// highlight in this connection's view (empty without one).
    case sentence(number: Int, range: Range<Int>, rects: [Rect], outline: Outline)
    /// The document's text was replaced; the reveal starts over on the new
    /// text, which is `total` long (`graphemes` graphemes).
    case restart(total: Int, graphemes: Int)
    /// The reveal reached `end` (the text's length, or where it stood when
    /// the document was deleted); the stream ends after this event.
    case done(end: Int, graphemes: Int)

    /// Parses the text of a `! ` line carrying `stream=`; returns the stream
    /// number and the event, or `nil` if it is not a typewriter event.
    static func parse(_ fields: ReplyFields) throws -> (stream: Int, event: TypewriterEvent)? {
        guard fields.has("stream"), let name = fields.positional.first else { return nil }
        let stream = try fields.int("stream")
        switch name {
        case "TICK":
            return (stream, .tick(try Tick(fields)))
        case "SENTENCE":
            return (stream, .sentence(
                number: try fields.int("sentence"), range: try fields.range("range"),
                rects: try fields.rects("rects"), outline: try fields.outline("outline")))
        case "RESTART":
            return (stream, .restart(total: try fields.int("total"), graphemes: try fields.int("graphemes")))
        case "DONE":
            return (stream, .done(end: try fields.int("end"), graphemes: try fields.int("graphemes")))
        default:
            return nil
        }
    }
}
