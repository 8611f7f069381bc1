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
/// The payload token must be the line's last (options go before it): a
/// `{N}` or `<<WORD` anywhere else, or a literal written with blanks
/// inside its braces (`{ 5}`), is answered `ERR ARGS` at its line, and
/// the payload it announces is consumed all the same (N bytes skipped, or
/// the heredoc's lines dropped up to `WORD`), so that none of it is ever
/// read as a request (see ``PayloadMarker``).
///
/// A payload larger than the limit is not buffered: a literal gets its
/// `ERR PAYLOAD` as soon as its length is read and its bytes are then
/// skipped as they arrive; a heredoc's lines are skipped up to its
/// terminator, which is when it is known to be too long. Either way the
/// stream stays in step and the connection stays open.
///
/// **Before AUTH** (``limits`` is ``Limits/unauthenticated``) only small
/// requests are read: a line of at most
/// ``maximumUnauthenticatedRequestBytes``, no literal or heredoc at all, a
/// RESP array of at most ``maximumUnauthenticatedArrayLength`` bulk strings
/// of at most ``maximumUnauthenticatedRequestBytes`` each. Anything larger
/// is refused at its length line (`ERR NOAUTH`, and the connection is
/// closed), before its bytes arrive, so an unauthenticated connection never
/// makes the daemon hold more than one read and one small request. The
/// limits can be raised between two requests (``limits`` = ``Limits/full``
/// once AUTH succeeds); bytes already buffered are then read with them.
///
/// ```swift
/// var decoder = RequestDecoder(maximumLineLength: 1 << 20, maximumPayloadLength: 16 << 20)
/// decoder.append(bytes)
/// while let item = decoder.next() { ... }
/// ```
///
/// - Complexity: amortised O(n) in the bytes appended, for every framing
///   and however the bytes are split into reads: each byte is scanned and
///   copied a bounded number of times (``work`` counts them). A growing
///   payload is kept in the decoder, never in its state enum, so appending
///   a line to it does not copy it.
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

    /// Which limits apply: the configured ones, or the small ones for a
    /// connection that has not authenticated.
    public enum Limits: Sendable, Equatable {
        /// `maximumLineLength`, `maximumPayloadLength` and Redis's array limit.
        case full
        /// Before AUTH: see ``maximumUnauthenticatedRequestBytes`` and
        /// ``maximumUnauthenticatedArrayLength``; no literal or heredoc.
        case unauthenticated
    }

    /// The longest request line, and the longest RESP bulk string, a
    /// connection may send before AUTH (the configured limits apply if
    /// smaller). Longer ones are refused with `ERR NOAUTH` and the
    /// connection is closed.
    public static let maximumUnauthenticatedRequestBytes = 4096
    /// The most elements of a RESP array before AUTH (Redis allows 10 to
    /// an unauthenticated client); `HELLO 3 AUTH user token SETNAME name`
    /// has 6.
    public static let maximumUnauthenticatedArrayLength = 10

    /// The configured limits (``Limits/full``).
    public let maximumLineLength: Int
    public let maximumPayloadLength: Int
    /// Which limits apply; may change between requests, and applies to
    /// the bytes already buffered that have not been decoded yet.
    public var limits: Limits {
        didSet { lines.maximumLineLength = lineLimit }
    }
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
    /// The request whose literal or heredoc payload is being read.
    private var pendingRequest: Request?
    /// The heredoc text read so far. Kept here, not in ``state``, so that
    /// appending a line does not copy it (an enum payload bound with `var`
    /// is a second reference to the same storage: the append would copy
    /// the whole text per line, quadratic in it).
    private var heredocText: [UInt8] = []
    private var failed = false
    private var ownWork = DecodingWork()

    /// Bytes scanned and copied since the decoder was made: at most a small
    /// constant times the bytes appended (a statistic for tests).
    public var work: DecodingWork { lines.work + ownWork }

    private enum State: Sendable {
        case line
        /// Reading a RESP array request: how many elements remain (those
        /// read so far are in `elements`).
        case respArray(remaining: Int)
        /// Reading one RESP bulk string of `length` bytes (plus CRLF).
        case respBulk(remaining: Int, length: Int)
        /// Reading the `count` bytes of ``pendingRequest``'s literal.
        case literal(count: Int)
        /// Skipping an oversized literal; `remaining` bytes to drop.
        case skippingLiteral(remaining: Int)
        /// The optional line ending after a literal's bytes (the request
        /// was yielded when its bytes were in: a client that sends none
        /// gets its reply without sending more).
        case afterLiteral
        /// Reading ``pendingRequest``'s heredoc into ``heredocText``.
        case heredoc(terminator: [UInt8], isFirstLine: Bool)
        case skippingHeredoc(tag: String?, terminator: [UInt8])
        /// Dropping the lines of a heredoc whose request was refused at its
        /// line (``misplacedPayload(_:of:)``), up to its terminator.
        case discardingHeredoc(terminator: [UInt8])
    }

    public init(maximumLineLength: Int, maximumPayloadLength: Int, limits: Limits = .full) {
        self.maximumLineLength = maximumLineLength
        self.maximumPayloadLength = maximumPayloadLength
        self.limits = limits
        lines = LineDecoder(maximumLineLength: maximumLineLength)
        lines.maximumLineLength = lineLimit
    }

    private var isUnauthenticated: Bool { limits == .unauthenticated }

    /// The longest request line under the current limits.
    private var lineLimit: Int {
        isUnauthenticated ? min(maximumLineLength, Self.maximumUnauthenticatedRequestBytes) : maximumLineLength
    }

    /// The longest RESP bulk string under the current limits.
    private var bulkLimit: Int {
        isUnauthenticated ? min(maximumPayloadLength, Self.maximumUnauthenticatedRequestBytes) : maximumPayloadLength
    }

    /// The most elements of a RESP array under the current limits.
    private var arrayLimit: Int {
        isUnauthenticated ? Self.maximumUnauthenticatedArrayLength : RESP.maximumArrayLength
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

    /// The memory the decoder's buffers hold, in bytes (their capacity):
    /// between requests at most about ``LineDecoder/retainedCapacity`` per
    /// buffer, whatever size the last request had.
    public var retainedByteCount: Int { lines.capacity + elements.bytes.capacity + heredocText.capacity }

    /// The next request or failure, or `nil` when more bytes are needed.
    ///
    /// When it returns `nil`, consumed bytes are dropped and the memory a
    /// finished large request needed is given back (so a connection that
    /// sent one 15 MB request does not keep 15 MB).
    public mutating func next() -> Item? {
        if let item = nextItem() { return item }
        releaseConsumedBytes()
        return nil
    }

    /// Drops what is consumed, and storage beyond what idle decoding needs.
    /// Only between items: an item may share these buffers until the next call.
    private mutating func releaseConsumedBytes() {
        lines.compact()
        if case .line = state { elements.releaseLargeStorage() }
    }

    private mutating func nextItem() -> Item? {
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
                        if count > arrayLimit {
                            return respFailure(ProtocolError(.authenticationRequired, "a request before AUTH has at most \(arrayLimit) elements; send AUTH first; closing"))
                        }
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
                    do {
                        length = try RESP.bulkLength(header, limit: isUnauthenticated ? Int.max : maximumPayloadLength)
                    } catch {
                        return respFailure(error)
                    }
                    if length > bulkLimit {
                        return respFailure(ProtocolError(.authenticationRequired, "a bulk string before AUTH is at most \(bulkLimit) bytes; send AUTH first; closing"))
                    }
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
                ownWork.bytesCopied += elements.append(bytes)
                if remaining > 1 {
                    state = .respArray(remaining: remaining - 1)
                    continue
                }
                state = .line
                return finishedRESPRequest()

            case .literal(let count):
                guard let bytes = lines.nextBytes(count: count) else { return nil }
                ownWork.bytesCopied += count
                state = .afterLiteral
                // Complete now, without waiting to see whether a line end follows.
                guard var request = pendingRequest else { continue }
                pendingRequest = nil
                request.payload = Array(bytes)
                return .request(request)

            case .skippingLiteral(let remaining):
                let take = min(remaining, lines.bufferedByteCount)
                _ = lines.nextBytes(count: take)
                if take < remaining {
                    state = .skippingLiteral(remaining: remaining - take)
                    return nil
                }
                state = .afterLiteral

            case .afterLiteral:
                // Swallow one CRLF or LF after the literal's bytes, if present.
                guard lines.skipOptionalLineEnding() else { return nil }
                state = .line

            case .heredoc(let terminator, let isFirstLine):
                guard let line = nextLine() else { return nil }
                guard case .line(let bytes) = line else {
                    if case .failure(let item) = line { return item }
                    return nil
                }
                if bytes.elementsEqual(terminator) {
                    state = .line
                    guard var request = pendingRequest else { continue }
                    pendingRequest = nil
                    // The text moves into the request; the decoder keeps no reference to it.
                    request.payload = heredocText
                    heredocText = []
                    return .request(request)
                }
                if heredocText.count + bytes.count + 1 > maximumPayloadLength {
                    state = .skippingHeredoc(tag: pendingRequest?.tag, terminator: terminator)
                    pendingRequest = nil
                    heredocText = []
                    continue
                }
                if isFirstLine {
                    state = .heredoc(terminator: terminator, isFirstLine: false)
                } else {
                    ownWork.bytesCopied += heredocText.appendCountingCopies(0x0A)
                }
                ownWork.bytesCopied += heredocText.appendCountingCopies(contentsOf: bytes)

            case .skippingHeredoc(let tag, let terminator):
                guard let line = nextLine() else { return nil }
                if case .line(let bytes) = line, bytes.elementsEqual(terminator) {
                    state = .line
                    return .failure(
                        ProtocolError(.payloadTooLarge, "heredoc text is longer than \(maximumPayloadLength) bytes (--max-payload-bytes)"),
                        tag: tag, closesConnection: false)
                }
                if case .failure(let item) = line { return item }

            case .discardingHeredoc(let terminator):
                guard let line = nextLine() else { return nil }
                if case .line(let bytes) = line, bytes.elementsEqual(terminator) { state = .line }
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
    ///
    /// It is tried once per request, at its `*N` line: when it fails, that
    /// line is read and the rest element by element, so a large array or a
    /// large bulk string arriving in many reads is never rescanned.
    private mutating func nextWholeRESPRequest() -> Item? {
        let limit = bulkLimit
        let maximumElements = min(arrayLimit, RESP.wholeArrayMaximumElements)
        var scanned = 0
        let length = lines.withBufferedBytes {
            RESP.wholeArray(in: $0, limit: limit, maximumElements: maximumElements, ranges: &elementRanges, scanned: &scanned)
        }
        ownWork.bytesScanned += scanned
        guard let length, let request = lines.nextBytes(count: length) else { return nil }
        elements.removeAll()
        for range in elementRanges {
            ownWork.bytesCopied += elements.append(request[(request.startIndex + range.lowerBound)..<(request.startIndex + range.upperBound)])
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
            let error = isUnauthenticated && limit < maximumLineLength
                ? ProtocolError(.authenticationRequired, "a request line before AUTH is at most \(limit) bytes; send AUTH first; closing")
                : ProtocolError(.lineTooLong, "request line longer than \(limit) bytes (--max-line-bytes); closing")
            return .failure(.failure(error, tag: nil, closesConnection: true))
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
        guard let marker = PayloadMarker.first(in: request.arguments) else { return .request(request) }
        guard marker.isWellFormed, marker.tokens.upperBound == request.arguments.count else {
            return misplacedPayload(marker, of: request)
        }
        let last = request.arguments[marker.tokens.lowerBound]
        if case .literal(let count) = marker.kind {
            request.arguments.removeLast()
            guard let count else {
                failed = true
                return .failure(
                    ProtocolError(.payloadTooLarge, "literal length \(last.value) is not a number of bytes; closing"),
                    tag: request.tag, closesConnection: true)
            }
            if isUnauthenticated { return unauthenticatedPayload(tag: request.tag) }
            guard count <= maximumPayloadLength else {
                state = .skippingLiteral(remaining: count)
                return .failure(Self.payloadTooLarge(count, limit: maximumPayloadLength), tag: request.tag, closesConnection: false)
            }
            pendingRequest = request
            state = .literal(count: count)
            return nil
        }
        if case .heredoc(let terminator) = marker.kind {
            if isUnauthenticated { return unauthenticatedPayload(tag: request.tag) }
            request.arguments.removeLast()
            pendingRequest = request
            heredocText = []
            state = .heredoc(terminator: terminator, isFirstLine: true)
            return nil
        }
        return .request(request)
    }

    /// A payload token that is not the line's last (`PUT d {5} lang=ko`)
    /// or a literal written with blanks inside its braces (`{ 5}`): `ERR
    /// ARGS`, and the payload it announces is consumed all the same (the
    /// literal's bytes skipped as they arrive, the heredoc's lines up to
    /// its terminator dropped), so that none of it runs as a request.
    private mutating func misplacedPayload(_ marker: PayloadMarker, of request: Request) -> Item {
        if isUnauthenticated { return unauthenticatedPayload(tag: request.tag) }
        let message: String
        switch marker.kind {
        case .literal(let count?):
            let what = marker.isWellFormed
                ? "a {\(count)} literal must be the last token of its line, after the options (\(request.command) <arguments> [key=value…] {\(count)})"
                : "a literal is written {\(count)}, with no blanks inside the braces"
            message = "\(what); its \(count) bytes are skipped"
            state = .skippingLiteral(remaining: count)
        case .literal(nil):
            // Only a last token can be a literal of no number (see PayloadMarker).
            failed = true
            return .failure(
                ProtocolError(.payloadTooLarge, "literal length is not a number of bytes; closing"),
                tag: request.tag, closesConnection: true)
        case .heredoc(let terminator):
            let word = String(decoding: terminator, as: UTF8.self)
            message = "a <<\(word) heredoc must be the last token of its line, after the options (\(request.command) <arguments> [key=value…] <<\(word)); its lines up to \(word) are skipped"
            heredocText = []
            state = .discardingHeredoc(terminator: terminator)
        }
        return .failure(ProtocolError(.arguments, message), tag: request.tag, closesConnection: false)
    }

    /// A literal or heredoc before AUTH: refused at its line, before its
    /// bytes arrive, and the connection closed (its bytes would otherwise
    /// have to be read or skipped).
    private mutating func unauthenticatedPayload(tag: String?) -> Item {
        failed = true
        return .failure(
            ProtocolError(.authenticationRequired, "payloads ({N} literals, <<WORD heredocs) are refused before AUTH, and requests are at most \(lineLimit) bytes; send AUTH <token> first; closing"),
            tag: tag, closesConnection: true)
    }

    /// A malformed RESP request: one error, then the stream is abandoned
    /// (as Redis does: its framing cannot be trusted any more).
    private mutating func respFailure(_ error: Error) -> Item {
        failed = true
        let protocolError = (error as? ProtocolError)
            ?? ProtocolError(.syntax, "RESP protocol error; closing")
        return .failure(protocolError, tag: nil, closesConnection: true)
    }


    private static func payloadTooLarge(_ count: Int, limit: Int) -> ProtocolError {
        ProtocolError(.payloadTooLarge, "literal of \(count) bytes is over the \(limit)-byte payload limit (--max-payload-bytes); its bytes will be skipped")
    }
}

/// A token of a request line that announces a payload (protocol/PROTOCOL.md,
/// "Payloads"): a bare, unquoted `{N}` (one to 15 digits) or `<<WORD`
/// anywhere on the line, a literal written with blanks inside its braces
/// (`{ 5}`, `{5 }`, `{ 5 }`: two or three tokens), or, as the last token
/// only, `{…}` of no number (a garbled length, which cannot be skipped).
///
/// Only a well-formed marker that is the line's last token is a payload
/// the request carries; any other is refused, its payload consumed (see
/// ``RequestDecoder``). A quoted `"{5}"` or `key={5}` is never a marker.
struct PayloadMarker {
    enum Kind {
        /// `{N}`: N bytes follow; nil for a length that is not a number.
        case literal(Int?)
        /// `<<WORD`: the lines up to `WORD` follow.
        case heredoc(terminator: [UInt8])
    }

    let kind: Kind
    /// The arguments it is written as (more than one for `{ 5}`).
    let tokens: Range<Int>
    /// Written `{N}` or `<<WORD` as one token (not `{ 5}`).
    let isWellFormed: Bool

    /// The first marker among `arguments`, if any.
    ///
    /// - Complexity: O(n) in the arguments' length.
    static func first(in arguments: [Argument]) -> PayloadMarker? {
        func bare(_ index: Int) -> String? {
            guard index < arguments.count, arguments[index].key == nil, !arguments[index].quoted else { return nil }
            return arguments[index].value
        }
        for index in arguments.indices {
            guard let token = bare(index) else { continue }
            let utf8 = token.utf8
            guard let first = utf8.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "<") else { continue }
            if first == UInt8(ascii: "<") {
                guard utf8.count > 2, utf8.dropFirst().first == UInt8(ascii: "<") else { continue }
                return PayloadMarker(kind: .heredoc(terminator: Array(utf8.dropFirst(2))), tokens: index..<(index + 1), isWellFormed: true)
            }
            let isLast = index == arguments.count - 1
            if utf8.count >= 2, utf8.last == UInt8(ascii: "}") {
                if let count = digits(utf8.dropFirst().dropLast()) {
                    return PayloadMarker(kind: .literal(count), tokens: index..<(index + 1), isWellFormed: true)
                }
                if isLast { return PayloadMarker(kind: .literal(nil), tokens: index..<(index + 1), isWellFormed: true) }
                continue
            }
            // `{ 5}`, `{ 5 }`, `{5 }`: the digits and the closing brace in the next tokens.
            let opened = utf8.dropFirst()
            if opened.isEmpty, let next = bare(index + 1)?.utf8 {
                if next.last == UInt8(ascii: "}"), let count = digits(next.dropLast()) {
                    return PayloadMarker(kind: .literal(count), tokens: index..<(index + 2), isWellFormed: false)
                }
                if let count = digits(next), bare(index + 2) == "}" {
                    return PayloadMarker(kind: .literal(count), tokens: index..<(index + 3), isWellFormed: false)
                }
            } else if let count = digits(opened), bare(index + 1) == "}" {
                return PayloadMarker(kind: .literal(count), tokens: index..<(index + 2), isWellFormed: false)
            }
        }
        return nil
    }

    /// The value of 1 to 15 ASCII digits; nil for anything else.
    private static func digits<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 15 else { return nil }
        return WireNumber.wholeNumber(bytes)
    }
}
