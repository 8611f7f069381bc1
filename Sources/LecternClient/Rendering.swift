// Rendering.swift: a view drawn as SVG, from RENDER.

/// A standalone SVG picture of a view, for people to look at: characters
/// where Lectern measured them, sentence starts, highlights with dashed
/// outlines, attachments, and optionally every line box and baseline.
public struct Rendering: Hashable, Sendable {
    /// The SVG document's bytes (UTF-8), exactly as the daemon sent them.
    public var bytes: [UInt8]
    /// The picture's width in points.
    public var width: Double
    /// The picture's height in points.
    public var height: Double

    /// The SVG document as text.
    public var svg: String { String(decoding: bytes, as: UTF8.self) }

    init(_ reply: Reply) throws {
        guard case .literal(let bytes)? = reply.data.first else {
            throw LecternError.malformedReply("RENDER reply without the SVG literal")
        }
        let fields = try reply.fields()
        self.bytes = bytes
        width = try fields.double("width")
        height = try fields.double("height")
    }
}
