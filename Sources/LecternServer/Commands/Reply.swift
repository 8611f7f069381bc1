// Reply.swift: what a command answers, before it is framed for the wire.

import LecternProtocol

/// One data line of a reply: text, or exact bytes sent as a literal.
enum ReplyLine {
    case text(String)
    case literal([UInt8])
}

/// Text data lines kept with their line-protocol encoding (`* text` CRLF
/// each), for replies that are memoised and sent over and over (a
/// sentence's highlight): sending them is one copy. A class, so that the
/// cache hands one out by reference; the bytes are in memory of its own
/// (not an array), so copying them out takes no reference count either.
final class EncodedDataLines {
    let lines: [String]
    /// The lines as data lines of the line protocol.
    let encoded: UnsafeBufferPointer<UInt8>
    /// For Redis clients: the array header of a reply made of these lines
    /// and a status, then the lines as bulk strings (made on first use).
    var respEncoded: UnsafeBufferPointer<UInt8> {
        if let resp { return resp }
        var bytes: [UInt8] = []
        RESP.header(UInt8(ascii: "*"), count: lines.count + 1, into: &bytes)
        for line in lines { RESP.bulkString(line, into: &bytes) }
        let made = Self.copy(bytes)
        resp = made
        return made
    }
    private var resp: UnsafeBufferPointer<UInt8>?

    init(_ lines: [String]) {
        self.lines = lines
        var encoded: [UInt8] = []
        for line in lines { ReplyEncoder.data(line, into: &encoded) }
        self.encoded = Self.copy(encoded)
    }

    deinit {
        encoded.deallocate()
        resp?.deallocate()
    }

    private static func copy(_ bytes: [UInt8]) -> UnsafeBufferPointer<UInt8> {
        let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = memory.initialize(from: bytes)
        return UnsafeBufferPointer(memory)
    }
}

/// The result of a command: data lines, then the text of the final OK line.
///
/// To Redis clients (RESP) a reply without data lines is the simple string
/// of its status (`+PONG`); one with data lines is an array of them as bulk
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
