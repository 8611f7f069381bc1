// AttachmentPlacement.swift: where an inline attachment landed, from ATTACH.

/// ATTACH's reply: `OK ATTACH name=anim offset=62 rect=69.5,59.37,30,30 line=3`.
public struct AttachmentPlacement: Hashable, Sendable {
    /// The attachment's name.
    public var name: String
    /// Its offset in the text.
    public var offset: Int
    /// Its box in this connection's view, when it has one.
    public var rect: Rect?
    /// The line it landed on, when this connection has a view.
    public var line: Int?

    init(_ fields: ReplyFields) throws {
        name = try fields.string("name")
        offset = try fields.int("offset")
        rect = try fields.optional(fields.rect, "rect")
        line = try fields.optional(fields.int, "line")
    }
}
