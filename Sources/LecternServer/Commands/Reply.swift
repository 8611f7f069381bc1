// Reply.swift: what a command answers, before it is framed for the wire.

import LecternProtocol

/// Text data lines kept with their encodings (see
/// ``ReplyWriter/dataLines(_:)``), for replies that are memoised and sent
/// over and over (a sentence's highlight): sending them is one copy. A
/// class, so that the cache hands one out by reference. The bytes are
/// made by the same writer as every other reply, so a memoised reply and
/// the generic one of the same lines are the same bytes.
///
/// Loop thread only (the RESP forms are made on first use).
final class EncodedDataLines {
    let lines: [String]
    /// The lines as data lines of the line protocol.
    let lineBytes: [UInt8]
    /// The lines at the start of a RESP2 and a RESP3 reply (made on first use).
    private var resp2Bytes: [UInt8]?
    private var resp3Bytes: [UInt8]?

    init(_ lines: [String]) {
        self.lines = lines
        self.lineBytes = ReplyWriter(.line).dataLines(lines)
    }

    /// Appends the lines as `writer` starts a reply with them; the status
    /// follows (``ReplyWriter/okPrefix(tag:into:)``).
    func append(for writer: ReplyWriter, to output: inout [UInt8]) {
        switch writer.framing {
        case .line:
            output.append(contentsOf: lineBytes)
        case .resp2:
            if resp2Bytes == nil { resp2Bytes = writer.dataLines(lines) }
            output.append(contentsOf: resp2Bytes ?? [])
        case .resp3:
            if resp3Bytes == nil { resp3Bytes = writer.dataLines(lines) }
            output.append(contentsOf: resp3Bytes ?? [])
        }
    }
}

@available(*, unavailable)
extension EncodedDataLines: Sendable {}

/// The result of a command: data lines, then the text of the final OK line.
///
/// Framed by ``ReplyWriter/reply(_:status:value:tag:into:)``: to Redis
/// clients (RESP) a reply without data lines is the simple string of its
/// status (`+PONG`); one with data lines is an array of them as bulk
/// strings, with the status as a last, simple-string element. A command
/// whose answer has a more natural RESP shape (HELLO's map, STATS's
/// integers) sets ``resp`` instead.
struct Reply {
    var data: [ReplyLine] = []
    var status: String
    /// The reply for Redis clients, when the generic mapping does not fit.
    var resp: RESPValue?

    init(_ status: String, data: [String] = []) {
        self.status = status
        self.data = data.map(ReplyLine.text)
    }

    init(_ status: String, lines: [ReplyLine]) {
        self.status = status
        self.data = lines
    }
}

/// What a handler did with its request.
enum CommandOutcome {
    /// The reply, now.
    case reply(Reply)
    /// The handler called ``Connection/deferReply()`` and will complete it.
    case deferred
    /// The handler already sent the reply itself (to order events after it).
    case sent
}
