// RequestDecoder.swift: requests, with their payloads, from a byte stream.

/// Turns the bytes of a connection into requests, including the text
/// payloads that follow some request lines.
///
/// Three ways to send text (see protocol/PROTOCOL.md, "Payloads"):
///
/// - a quoted string on the request line (`PUT d "One. Two."`), which needs
///   nothing from this type;
/// - a **literal**: the line ends with `{N}`, and exactly N raw bytes follow
///   the line ending, optionally followed by one more line ending
///   (`PUT d {9}\r\nOne. Two.\r\n`), which is what programs send;
/// - a **heredoc**: the line ends with `<<WORD`, and the lines that follow,
///   up to a line that is exactly `WORD`, are the text, joined with LF
///   (what people type in netcat).
///
/// A payload larger than the limit is not buffered: a literal gets its
/// `ERR PAYLOAD` as soon as its length is read and its bytes are then
/// skipped as they arrive; a heredoc's lines are skipped up to its
/// terminator, which is when it is known to be too long. Either way the
/// stream stays in step and the connection stays open.
///
/// ```swift
/// var decoder = RequestDecoder(maximumLineLength: 1 << 20, maximumPayloadLength: 16 << 20)
/// decoder.append(bytes)
/// while let item = decoder.next() { ... }
/// ```
///
/// - Complexity: amortised O(n) in the bytes appended.
public struct RequestDecoder: Sendable {
    /// What the decoder produced.
    public enum Item: Equatable, Sendable {
        /// A complete request (with its payload, if it announced one).
        case request(Request)
        /// A plain request line, or a RESP request whose elements are all
        /// plain tokens, not yet made into a ``Request`` (only when
        /// ``yieldsPlainLines`` is set). It shares the decoder's buffers:
        /// let go of it before the next call to ``next()``, or that call
        /// copies them.
        case plain(PlainRequestLine)
        /// A request that failed to decode; `tag` is echoed on the error.
        /// After a `closesConnection` failure the decoder yields nothing more.
        case failure(ProtocolError, tag: String?, closesConnection: Bool)
    }

    public let maximumPayloadLength: Int
    /// Whether plain request lines (see ``PlainRequestLine``) are yielded as
    /// ``Item/plain(_:)`` for the caller to answer from their bytes, instead
    /// of as parsed requests.
    public var yieldsPlainLines = false
    /// How the most recent item was framed (its reply is framed the same way).
    public private(set) var lastFraming = Request.Framing.line
    private var lines: LineDecoder
    /// The elements of the RESP request being read (reused from request to request).
    private var elements = RESP.Elements()
    /// Where each element of a whole RESP request lies (reused from request to request).
    private var elementRanges: [Range<Int>] = []
    private var state = State.line
    private var failed = false

    private enum State: Sendable {
        case line
        /// Reading a RESP array request: how many elements remain (those
        /// read so far are in `elements`).
        case respArray(remaining: Int)
        /// Reading one RESP bulk string of `length` bytes (plus CRLF).
        case respBulk(remaining: Int, length: Int)
        case literal(Request, count: Int)
        /// Skipping an oversized literal; `remaining` bytes to drop.
        case skippingLiteral(remaining: Int)
        /// Optional line ending after a literal.
        case afterLiteral(Request?)
        case heredoc(Request, terminator: String, text: [UInt8], isFirstLine: Bool)
        case skippingHeredoc(tag: String?, terminator: String)
    }

    public init(maximumLineLength: Int, maximumPayloadLength: Int) {
        lines = LineDecoder(maximumLineLength: maximumLineLength)
        self.maximumPayloadLength = maximumPayloadLength
    }

    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        lines.append(bytes)
    }

    /// Appends bytes from the socket's read buffer.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        lines.append(bytes)
    }

    /// Bytes received but not yet decoded.
    public var bufferedByteCount: Int { lines.bufferedByteCount }

    /// The next request or failure, or `nil` when more bytes are needed.
    public mutating func next() -> Item? {
        while !failed {
            switch state {
            case .line:
                if lines.peekByte(at: 0) == UInt8(ascii: "*") {
                    lastFraming = .resp
                    if let item = nextWholeRESPRequest() { return item }
                    guard let line = nextLine() else { return nil }
                    switch line {
                    case .failure(let item): return item
                    case .line(let header):
                        let count: Int
                        do { count = try RESP.arrayLength(header) } catch { return respFailure(error) }
                        if count <= 0 { continue }  // Redis ignores empty arrays
                        elements.removeAll()
                        state = .respArray(remaining: count)
                    }
                    continue
                }
                guard let line = nextLine() else { return nil }
                lastFraming = .line
                // Consumed, so that the line's bytes pass to the item
                // without another reference count.
                switch consume line {
                case .failure(let item): return item
                case .line(let bytes):
                    if yieldsPlainLines, let shape = PlainRequestLine.shape(of: bytes) {
                        return .plain(PlainRequestLine(consume bytes, shape: shape))
                    }
                    if let item = decodeRequestLine(bytes) { return item }
                }

            case .respArray(let remaining):
                guard let line = nextLine() else { return nil }
                switch line {
                case .failure(let item): return item
                case .line(let header):
                    let length: Int
                    do { length = try RESP.bulkLength(header, limit: maximumPayloadLength) } catch { return respFailure(error) }
                    state = .respBulk(remaining: remaining, length: length)
                }

            case .respBulk(let remaining, let length):
                // The bytes, then CRLF (a bare LF is accepted too, so that a
                // person can type RESP into netcat).
                guard lines.bufferedByteCount >= length + 1 else { return nil }
                let terminator = lines.peekByte(at: length)
                if terminator == 0x0D && lines.bufferedByteCount < length + 2 { return nil }
                guard let bytes = lines.nextBytes(count: length) else { return nil }
                if terminator == 0x0D, lines.peekByte(at: 1) == 0x0A {
                    _ = lines.nextBytes(count: 2)
                } else if terminator == 0x0A {
                    _ = lines.nextBytes(count: 1)
                } else {
                    return respFailure(ProtocolError(.syntax, "RESP protocol error: a bulk string must end with CRLF; closing"))
                }
                elements.append(bytes)
                if remaining > 1 {
                    state = .respArray(remaining: remaining - 1)
                    continue
                }
                state = .line
                return finishedRESPRequest()

            case .literal(var request, let count):
                guard let bytes = lines.nextBytes(count: count) else { return nil }
                request.payload = Array(bytes)
                state = .afterLiteral(request)

            case .skippingLiteral(let remaining):
                let take = min(remaining, lines.bufferedByteCount)
                _ = lines.nextBytes(count: take)
                if take < remaining {
                    state = .skippingLiteral(remaining: remaining - take)
                    return nil
                }
                state = .afterLiteral(nil)

            case .afterLiteral(let request):
                // Swallow one CRLF or LF after the literal's bytes, if present.
                guard lines.skipOptionalLineEnding() else { return nil }
                state = .line
                if let request { return .request(request) }

            case .heredoc(var request, let terminator, var text, let isFirstLine):
                guard let line = nextLine() else { return nil }
                guard case .line(let bytes) = line else {
                    if case .failure(let item) = line { return item }
                    return nil
                }
                if bytes.elementsEqual(terminator.utf8) {
                    request.payload = text
                    state = .line
                    return .request(request)
                }
                if text.count + bytes.count + 1 > maximumPayloadLength {
                    state = .skippingHeredoc(tag: request.tag, terminator: terminator)
                    continue
                }
                if !isFirstLine { text.append(0x0A) }
                text.append(contentsOf: bytes)
                state = .heredoc(request, terminator: terminator, text: text, isFirstLine: false)

            case .skippingHeredoc(let tag, let terminator):
                guard let line = nextLine() else { return nil }
                if case .line(let bytes) = line, bytes.elementsEqual(terminator.utf8) {
                    state = .line
                    return .failure(
                        ProtocolError(.payloadTooLarge, "heredoc text is longer than \(maximumPayloadLength) bytes (--max-payload-bytes)"),
                        tag: tag, closesConnection: false)
                }
                if case .failure(let item) = line { return item }
            }
        }
        return nil
    }

    /// The request of the RESP elements just read (the plain line, when
    /// plain lines are wanted and the elements are plain tokens).
    private mutating func finishedRESPRequest() -> Item {
        if yieldsPlainLines, let plain = elements.plainLine() { return .plain(plain) }
        do {
            return .request(try RESP.request(from: elements))
        } catch {
            // RESP.request throws only ProtocolErrors.
            return .failure(error as? ProtocolError ?? ProtocolError(.syntax, "RESP protocol error"), tag: nil, closesConnection: false)
        }
    }

    /// A RESP array request that is buffered whole and in strict form (see
    /// ``RESP/wholeArray(in:limit:ranges:)``), read in one step, as most
    /// requests arrive: the same request as reading it line by line, without
    /// a state change per line. Nil, having consumed nothing, otherwise.
    private mutating func nextWholeRESPRequest() -> Item? {
        let limit = maximumPayloadLength
        guard let length = lines.withBufferedBytes({ RESP.wholeArray(in: $0, limit: limit, ranges: &elementRanges) }),
            let request = lines.nextBytes(count: length)
        else { return nil }
        elements.removeAll()
        for range in elementRanges {
            elements.append(request[(request.startIndex + range.lowerBound)..<(request.startIndex + range.upperBound)])
        }
        return finishedRESPRequest()
    }

    private enum LineResult {
        case line(ArraySlice<UInt8>)
        case failure(Item)
    }

    private mutating func nextLine() -> LineResult? {
        do {
            guard let line = try lines.next() else { return nil }
            return .line(line)
        } catch {
            failed = true
            let limit = lines.maximumLineLength
            return .failure(.failure(
                ProtocolError(.lineTooLong, "request line longer than \(limit) bytes (--max-line-bytes); closing"),
                tag: nil, closesConnection: true))
        }
    }

    /// Parses a request line; returns an item to yield, or nil when the
    /// request waits for its payload (or the line was blank).
    private mutating func decodeRequestLine(_ line: ArraySlice<UInt8>) -> Item? {
        var request: Request
        do {
            guard let parsed = try RequestParser.parse(line) else { return nil }
            request = parsed
        } catch let error as ProtocolError {
            let fatal = error.code == .binary
            if fatal { failed = true }
            return .failure(error, tag: RequestParser.tag(of: line), closesConnection: fatal)
        } catch {
            return nil
        }
        guard let last = request.arguments.last, last.key == nil, !last.quoted else {
            return .request(request)
        }
        if let count = Self.literalLength(last.value) {
            request.arguments.removeLast()
            guard let count else {
                failed = true
                return .failure(
                    ProtocolError(.payloadTooLarge, "literal length \(last.value) is not a number of bytes; closing"),
                    tag: request.tag, closesConnection: true)
            }
            guard count <= maximumPayloadLength else {
                state = .skippingLiteral(remaining: count)
                return .failure(Self.payloadTooLarge(count, limit: maximumPayloadLength), tag: request.tag, closesConnection: false)
            }
            state = .literal(request, count: count)
            return nil
        }
        if last.value.hasPrefix("<<"), last.value.count > 2 {
            request.arguments.removeLast()
            state = .heredoc(request, terminator: String(last.value.dropFirst(2)), text: [], isFirstLine: true)
            return nil
        }
        return .request(request)
    }

    /// A malformed RESP request: one error, then the stream is abandoned
    /// (as Redis does: its framing cannot be trusted any more).
    private mutating func respFailure(_ error: Error) -> Item {
        failed = true
        let protocolError = (error as? ProtocolError)
            ?? ProtocolError(.syntax, "RESP protocol error; closing")
        return .failure(protocolError, tag: nil, closesConnection: true)
    }

    /// `{N}` → N; `{garbage}` → .some(nil); anything else → nil.
    private static func literalLength(_ token: String) -> Int?? {
        guard token.hasPrefix("{"), token.hasSuffix("}"), token.count >= 2 else { return nil }
        let digits = token.dropFirst().dropLast()
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let value = Int(digits)
        else { return .some(nil) }
        return .some(value)
    }

    private static func payloadTooLarge(_ count: Int, limit: Int) -> ProtocolError {
        ProtocolError(.payloadTooLarge, "literal of \(count) bytes is over the \(limit)-byte payload limit (--max-payload-bytes); its bytes will be skipped")
    }
}
