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

/// `! TICK doc stream=1 end=12 graphemes=11 total=62 sentence=0 caret=x,y,w,h`:
/// the revealed prefix now ends at ``end``.
public struct Tick: Hashable, Sendable {
    /// The document.
    public var document: String
    /// The stream number.
    public var stream: Int
    /// End of the revealed prefix, in the connection's unit: show `0..<end`.
    public var end: Int
    /// The same position counted in graphemes.
    public var graphemes: Int
    /// The text's length in the connection's unit.
    public var total: Int
    /// The sentence being typed.
    public var sentence: Int
    /// The caret after the revealed prefix, when the connection has a view.
    public var caret: Rect?

    init(_ fields: ReplyFields) throws {
        document = try fields.word(at: 1)
        stream = try fields.int("stream")
        end = try fields.int("end")
        graphemes = try fields.int("graphemes")
        total = try fields.int("total")
        sentence = try fields.int("sentence")
        caret = fields.has("caret") ? try fields.rect("caret") : nil
    }
}
