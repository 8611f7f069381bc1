// Highlight.swift: a sentence with its highlight geometry in a view.

/// A sentence with its highlight in this connection's view: one rect per
/// line fragment of its content (never one bounding box), and the outline
/// of their union. Both are empty when the connection has no view (SELECTION).
public struct Highlight: Hashable, Sendable {
    /// The sentence highlighted.
    public var sentence: Sentence
    /// One rect per line fragment, in line order.
    public var rects: [Rect]
    /// The union's border, for a dashed "marching ants" outline.
    public var outline: Outline

    /// Reads the three data lines `sentence …`, `rects …`, `outline …`
    /// (rects and outline may be absent) from the front of `lines`.
    static func take(from lines: inout ArraySlice<ReplyFields>) throws -> Highlight {
        guard let first = lines.first else { throw LecternError.malformedReply("expected a sentence data line") }
        lines.removeFirst()
        var highlight = Highlight(sentence: try Sentence(first), rects: [], outline: Outline(polygons: []))
        if let line = lines.first, line.positional.first == "rects" {
            lines.removeFirst()
            guard let rects = WireValue.rects(try line.word(at: 1)) else { throw line.malformed("bad rects") }
            highlight.rects = rects
        }
        if let line = lines.first, line.positional.first == "outline" {
            lines.removeFirst()
            guard let outline = Outline(wire: try line.word(at: 1)) else { throw line.malformed("bad outline") }
            highlight.outline = outline
        }
        return highlight
    }

    /// All the highlights of a reply's data lines.
    static func all(in lines: [ReplyFields]) throws -> [Highlight] {
        var rest = lines[...]
        var highlights: [Highlight] = []
        while !rest.isEmpty { highlights.append(try take(from: &rest)) }
        return highlights
    }

    /// The single highlight of a TAP, RECTS or SELECT reply.
    static func one(in lines: [ReplyFields]) throws -> Highlight {
        guard let highlight = try all(in: lines).first else { throw LecternError.malformedReply("expected a sentence") }
        return highlight
    }
}
