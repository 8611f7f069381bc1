// DocumentEvent.swift: what other readers do in a watched document.

/// An event about a document this connection watches (WATCH), caused by
/// another connection: `! TAP shared by=1 sentence=0 range=0..22 rects=… outline=…`.
///
/// Geometry is in this connection's own view of the document, and empty
/// when it has none.
public struct DocumentEvent: Hashable, Sendable {
    /// The document.
    public var document: String
    /// The connection number (its ``Hello/connection``) of the reader who caused it.
    public var by: Int
    /// With `lecternd --redis`: the node that reader is connected to, when
    /// it is not this connection's (connection numbers are per node);
    /// `"redis"` with `by` 0 for a change the node learned from Redis itself.
    public var node: String?
    /// What happened.
    public var kind: Kind

    /// What happened in a watched document.
    public enum Kind: Hashable, Sendable {
        /// A tap hit `sentence`, whose content is `range`.
        case tap(sentence: Int, range: Range<Int>, rects: [Rect], outline: Outline)
        /// A sentence was added to (`added` true) or removed from that reader's selection.
        case select(added: Bool, sentence: Int, range: Range<Int>, rects: [Rect], outline: Outline)
        /// That reader cleared a non-empty selection.
        case clear
        /// The text or attachments changed; the document is at `revision` with `sentences` sentences.
        case changed(revision: Int, sentences: Int)
        /// The document was deleted; this connection no longer watches it.
        case deleted
    }

    /// Parses the text of a `! ` line; `nil` for events that are not
    /// document events (typewriter events carry `stream=`).
    init?(_ fields: ReplyFields) throws {
        guard fields.positional.count >= 2, !fields.has("stream") else { return nil }
        document = fields.positional[1]
        by = try fields.int("by")
        node = try fields.optional(fields.string, "node")
        switch fields.positional[0] {
        case "TAP":
            kind = .tap(
                sentence: try fields.int("sentence"), range: try fields.range("range"),
                rects: try fields.rects("rects"), outline: try fields.outline("outline"))
        case "SELECT":
            kind = .select(
                added: fields.positional.contains("added"), sentence: try fields.int("sentence"),
                range: try fields.range("range"), rects: try fields.rects("rects"), outline: try fields.outline("outline"))
        case "CLEAR": kind = .clear
        case "CHANGED": kind = .changed(revision: try fields.int("revision"), sentences: try fields.int("sentences"))
        case "DELETED": kind = .deleted
        default: return nil
        }
    }
}
