// ReplyWriter.swift: the one writer of replies and events, for the line
// protocol, RESP2 and RESP3.

/// One data line of a reply: text, or exact bytes sent as a literal.
public enum ReplyLine: Sendable, Equatable {
    case text(String)
    case literal([UInt8])
}

/// An asynchronous event (`! TICK doc …`, `! TAP doc …`): its line, which
/// starts with the event's name and the document id, and that document id
/// on its own, for clients that get events as messages of a document's
/// channel (RESP).
public struct EventLine: Sendable, Equatable {
    /// The document the event is about.
    public let document: String
    /// The event line without the `! ` and the line end; CR/LF-free.
    public let line: [UInt8]

    public init(document: String, line: [UInt8]) {
        self.document = document
        self.line = line
    }

    public init(document: String, text: String) {
        self.init(document: document, line: Array(text.utf8))
    }

    /// This event with `text` appended to its line.
    public func appending(_ text: String) -> EventLine {
        EventLine(document: document, line: line + text.utf8)
    }
}

/// Frames replies and events into a connection's output bytes, the same
/// calls for every framing a client can speak.
///
/// **Line protocol** (protocol/PROTOCOL.md, "Replies" and "Events"): a
/// reply is zero or more data lines (`* text`, or a literal `* {N}`
/// followed by N bytes) and exactly one final status line, `[@tag ]OK [text]`
/// or `[@tag ]ERR CODE sentence`. An event is a `! …` line between replies.
///
/// **RESP2 and RESP3** (for Redis clients; tags do not exist there): a reply
/// without data lines is the simple string of its status (`+PONG`, `+OK`
/// when the status is empty); one with data lines is an array of them as
/// bulk strings whose last element is the status as a simple string. The
/// two versions frame these alike; they differ in ``value(_:into:)``'s maps
/// (`%` in RESP3, flat arrays in RESP2) and in events: a pub/sub-style
/// `message` array in RESP2, a push (`>`) in RESP3, of `message`, the
/// document id and the event line. An error is `-CODE sentence`.
///
/// Every line ends with CRLF. Text that could contain a line break goes
/// through ``ReplyEncoder/quote(_:)`` before it gets here.
///
/// A reply written piece by piece is ``start(dataLines:into:)``, its data
/// lines, then ``ok(_:tag:into:)`` (or ``okPrefix(tag:into:)``, the status
/// text and ``ByteSink/writeLineEnd()``): ``reply(_:status:tag:into:)`` is
/// exactly that, and so are memoised lines (``dataLines(_:)``) followed by
/// a status, so the pieces and the whole cannot drift apart.
public struct ReplyWriter: Sendable, Equatable {
    public enum Framing: Sendable, Equatable {
        case line
        case resp2
        case resp3
    }

    public let framing: Framing

    public init(_ framing: Framing) { self.framing = framing }

    /// The writer for a connection: the line protocol, or RESP of
    /// `respVersion` (2, or 3 after `HELLO 3`).
    public init(resp: Bool, respVersion: Int) {
        self.framing = !resp ? .line : respVersion >= 3 ? .resp3 : .resp2
    }

    public var isRESP: Bool { framing != .line }

    // MARK: Replies

    /// What comes before the data lines of a reply that has `dataLines` of
    /// them: nothing in the line protocol; for RESP, when there are any,
    /// the header of the array of the lines and the status.
    @inlinable
    public func start(dataLines: Int, into output: inout [UInt8]) {
        guard framing != .line, dataLines > 0 else { return }
        Self.respHeader(UInt8(ascii: "*"), count: dataLines + 1, into: &output)
    }

    /// A data line (`text` must not contain CR or LF).
    @inlinable
    public func data(_ text: String, into output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            if framing == .line {
                output.append(UInt8(ascii: "*"))
                output.append(UInt8(ascii: " "))
                output.append(contentsOf: bytes)
                output.writeLineEnd()
            } else {
                Self.bulkString(bytes, into: &output)
            }
        }
    }

    /// A literal data line: exact bytes (a document's text, an SVG).
    /// `* {N}`, CRLF, the N bytes, CRLF; for RESP a bulk string.
    @inlinable
    public func literal(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        if framing == .line {
            output.write("* {")
            output.write(decimal: bytes.count)
            output.append(UInt8(ascii: "}"))
            output.writeLineEnd()
            output.append(contentsOf: bytes)
            output.writeLineEnd()
        } else {
            Self.bulkString(bytes, into: &output)
        }
    }

    /// ``literal(_:into:)-(UnsafeBufferPointer<UInt8>,_)`` of an array's bytes.
    @inlinable
    public func literal(_ bytes: [UInt8], into output: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { literal($0, into: &output) }
    }

    /// A data line of either kind.
    @inlinable
    public func line(_ line: ReplyLine, into output: inout [UInt8]) {
        switch line {
        case .text(let text): data(text, into: &output)
        case .literal(let bytes): literal(bytes, into: &output)
        }
    }

    /// The start of the final `OK` line for a status text the caller
    /// writes (not empty), followed by ``ByteSink/writeLineEnd()``:
    /// `[tag ]OK `, or `+` for RESP.
    @inlinable
    public func okPrefix(tag: String?, into output: inout [UInt8]) {
        if framing == .line {
            Self.tagPrefix(tag, into: &output)
            output.append(UInt8(ascii: "O"))
            output.append(UInt8(ascii: "K"))
            output.append(UInt8(ascii: " "))
        } else {
            output.append(UInt8(ascii: "+"))
        }
    }

    /// The final `OK` line: `[tag ]OK[ status]`; for RESP `+status`, or
    /// `+OK` when the status is empty.
    public func ok(_ status: String = "", tag: String?, into output: inout [UInt8]) {
        guard !status.isEmpty else {
            if framing == .line { Self.tagPrefix(tag, into: &output) } else { output.append(UInt8(ascii: "+")) }
            output.append(UInt8(ascii: "O"))
            output.append(UInt8(ascii: "K"))
            output.writeLineEnd()
            return
        }
        okPrefix(tag: tag, into: &output)
        output.write(text: status)
        output.writeLineEnd()
    }

    /// The final `ERR` line: `[tag ]ERR CODE sentence`; for RESP `-CODE sentence`.
    public func error(_ error: ProtocolError, tag: String?, into output: inout [UInt8]) {
        if framing == .line {
            Self.tagPrefix(tag, into: &output)
            output.write("ERR ")
        } else {
            output.append(UInt8(ascii: "-"))
        }
        output.write(text: error.code.rawValue)
        output.append(UInt8(ascii: " "))
        output.write(text: error.message)
        output.writeLineEnd()
    }

    /// A whole reply: its data lines and its status. For RESP, `value`
    /// instead when the command gives one (HELLO's map, STATS's integers).
    public func reply(_ lines: [ReplyLine], status: String, value: RESPValue? = nil, tag: String?, into output: inout [UInt8]) {
        if framing != .line, let value {
            self.value(value, into: &output)
            return
        }
        start(dataLines: lines.count, into: &output)
        for line in lines { self.line(line, into: &output) }
        ok(status, tag: tag, into: &output)
    }

    /// Text data lines as this writer frames them at the start of a reply
    /// (``start(dataLines:into:)`` and the lines), for a reply that is
    /// memoised and sent over and over (a sentence's highlight): the
    /// status follows with ``okPrefix(tag:into:)``.
    public func dataLines(_ lines: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        start(dataLines: lines.count, into: &bytes)
        for line in lines { data(line, into: &bytes) }
        return bytes
    }

    /// A RESP value: maps as RESP3 maps (`%`) or, in RESP2, flat arrays of
    /// alternating keys and values, as Redis itself answers HELLO. (Only
    /// for RESP framings; the line writer writes RESP2.)
    public func value(_ value: RESPValue, into output: inout [UInt8]) {
        switch value {
        case .simple(let text):
            output.append(UInt8(ascii: "+"))
            output.write(text: text)
            output.writeLineEnd()
        case .bulk(let bytes):
            bytes.withUnsafeBufferPointer { Self.bulkString($0, into: &output) }
        case .integer(let number):
            output.append(UInt8(ascii: ":"))
            output.write(decimal: number)
            output.writeLineEnd()
        case .array(let elements):
            Self.respHeader(UInt8(ascii: "*"), count: elements.count, into: &output)
            for element in elements { self.value(element, into: &output) }
        case .map(let pairs):
            if framing == .resp3 {
                Self.respHeader(UInt8(ascii: "%"), count: pairs.count, into: &output)
            } else {
                Self.respHeader(UInt8(ascii: "*"), count: pairs.count * 2, into: &output)
            }
            for (key, element) in pairs {
                self.value(key, into: &output)
                self.value(element, into: &output)
            }
        }
    }

    // MARK: Events

    /// An event: `! line`; for RESP2 the array, for RESP3 the push, of
    /// `message`, the event's document id and its line.
    public func event(_ event: EventLine, into output: inout [UInt8]) {
        switch framing {
        case .line:
            output.append(UInt8(ascii: "!"))
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: event.line)
            output.writeLineEnd()
        case .resp2, .resp3:
            Self.respHeader(UInt8(ascii: framing == .resp3 ? ">" : "*"), count: 3, into: &output)
            output.write("$7\r\nmessage\r\n")
            var document = event.document
            document.withUTF8 { Self.bulkString($0, into: &output) }
            event.line.withUnsafeBufferPointer { Self.bulkString($0, into: &output) }
        }
    }

    // MARK: Pieces

    @inlinable
    static func tagPrefix(_ tag: String?, into output: inout [UInt8]) {
        guard let tag else { return }
        output.write(text: tag)
        output.append(UInt8(ascii: " "))
    }

    /// An aggregate header: `*n` (array), `>n` (RESP3 push) or `%n` (RESP3 map).
    @inlinable
    static func respHeader(_ marker: UInt8, count: Int, into output: inout [UInt8]) {
        output.append(marker)
        output.write(decimal: count)
        output.writeLineEnd()
    }

    /// `$n`, CRLF, the bytes, CRLF.
    @inlinable
    static func bulkString(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "$"))
        output.write(decimal: bytes.count)
        output.writeLineEnd()
        output.append(contentsOf: bytes)
        output.writeLineEnd()
    }
}
