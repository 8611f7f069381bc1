// Reply.swift: one complete reply as it came off the wire.

/// A reply: its data lines and its final line (protocol/PROTOCOL.md, "Replies").
struct Reply: Sendable {
    /// One data line: `* text`, or a literal `* {N}` with its N bytes.
    enum DataLine: Sendable {
        case text(String)
        case literal([UInt8])

        /// The text of a text data line, `nil` for a literal.
        var text: String? {
            if case .text(let text) = self { return text }
            return nil
        }
    }

    /// The tag echoed on the final line, as sent (`@12`).
    var tag: String?
    /// The text after `OK` (empty when there is none).
    var text: String
    var data: [DataLine]

    /// The fields of the `OK` text.
    func fields() throws -> ReplyFields { try ReplyFields(text) }

    /// The text data lines, each parsed into fields.
    func dataFields() throws -> [ReplyFields] {
        try data.map { line in
            guard case .text(let text) = line else { throw LecternError.malformedReply("unexpected literal data line") }
            return try ReplyFields(text)
        }
    }
}

/// One line from the daemon: the end of a reply, or an event.
enum ServerMessage: Sendable {
    /// A reply ended with `OK`.
    case ok(Reply)
    /// A reply ended with `ERR <code> <sentence>`.
    case failure(tag: String?, code: LecternErrorCode, message: String)
    /// An event line, the text after `! `.
    case event(String)
}
