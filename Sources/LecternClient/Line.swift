// Line.swift: one row of a view's line table, from LINES.

/// A laid-out line: `line 0 range=0..23 top=0 baseline=15.78 height=19.79
/// x=0 width=183.08 paragraph=0 carets=0,13.09,…`.
public struct Line: Hashable, Sendable {
    /// Its number, from 0, top to bottom.
    public var number: Int
    /// The line's text, trailing spaces included (they hang past the edge).
    public var range: Range<Int>
    /// Top of the line box; line boxes tile without gaps.
    public var top: Double
    /// The baseline's y.
    public var baseline: Double
    /// Height of the line box.
    public var height: Double
    /// Left edge of the text.
    public var x: Double
    /// Width of the text, trailing spaces not counted.
    public var width: Double
    /// The paragraph it belongs to.
    public var paragraph: Int
    /// The x of every grapheme boundary of the line, in text order, so a
    /// client drawing the same text can place carets as the daemon does.
    public var carets: [Double]
    /// The parts of its visible text drawn in one font, in text order:
    /// filled in by ``LecternConnection/lineRuns(of:)``, empty from
    /// ``LecternConnection/lines(of:)``.
    public var runs: [LineRun] = []

    init(_ fields: ReplyFields) throws {
        guard try fields.word(at: 0) == "line" else { throw fields.malformed("not a line") }
        number = try fields.int(at: 1)
        range = try fields.range("range")
        top = try fields.double("top")
        baseline = try fields.double("baseline")
        height = try fields.double("height")
        x = try fields.double("x")
        width = try fields.double("width")
        paragraph = try fields.int("paragraph")
        var carets: [Double] = []
        for part in try fields.string("carets").split(separator: ",") {
            guard let value = Double(String(part)) else { throw fields.malformed("bad carets") }
            carets.append(value)
        }
        self.carets = carets
    }
}
