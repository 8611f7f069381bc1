// Tick.swift: one step of a typewriter reveal.

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
    /// Graphemes this tick revealed beyond one, without ticks of their own:
    /// the stream fell behind (the daemon was busy) and skipped ahead to
    /// where it should be now. 0 for an ordinary tick.
    public var skipped: Int

    init(_ fields: ReplyFields) throws {
        document = try fields.word(at: 1)
        stream = try fields.int("stream")
        end = try fields.int("end")
        graphemes = try fields.int("graphemes")
        total = try fields.int("total")
        sentence = try fields.int("sentence")
        caret = try fields.optional(fields.rect, "caret")
        skipped = try fields.optional(fields.int, "skipped") ?? 0
    }
}
