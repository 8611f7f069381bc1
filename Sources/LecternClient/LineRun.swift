// LineRun.swift: a part of a line drawn in one font, from LINES runs=yes.

/// A maximal part of a line's visible text in one font, script and
/// direction: `run 0 range=3..6 font=1 size=20 x=26.95 width=43.2 direction=ltr`.
/// Shaping ``range`` in that font at ``size``, with the paragraph around
/// it as context and in ``direction``, gives the glyphs the daemon
/// measured (and RENDER draws). Spaces hanging at the line's end and its
/// line end are in no run.
public struct LineRun: Hashable, Sendable {
    /// The number of the line it is on.
    public var line: Int
    /// Its text, in the connection's offset unit.
    public var range: Range<Int>
    /// Its font: an index into ``LineRuns/fonts``.
    public var font: Int
    /// The font size in points.
    public var size: Double
    /// Left edge of the span its glyphs fill.
    public var x: Double
    /// Width of that span.
    public var width: Double
    /// Which way its glyphs go.
    public var direction: TextDirection

    init(_ fields: ReplyFields) throws {
        guard try fields.word(at: 0) == "run" else { throw fields.malformed("not a run") }
        line = try fields.int(at: 1)
        range = try fields.range("range")
        font = try fields.int("font")
        size = try fields.double("size")
        x = try fields.double("x")
        width = try fields.double("width")
        direction = try fields.word("direction", as: TextDirection.self)
    }
}
