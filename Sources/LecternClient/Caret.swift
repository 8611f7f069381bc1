// Caret.swift: the caret at an offset, from CARET.

/// `OK CARET offset=34 rect=94.38,19.79,1,19.79 line=1`: a 1-point-wide
/// rect as tall as the line box. Where a line wraps, the caret is at the
/// start of the next line.
public struct Caret: Hashable, Sendable {
    /// The offset, in the connection's unit.
    public var offset: Int
    /// The caret's rect.
    public var rect: Rect
    /// The line it is on.
    public var line: Int

    init(_ fields: ReplyFields) throws {
        offset = try fields.int("offset")
        rect = try fields.rect("rect")
        line = try fields.int("line")
    }
}
