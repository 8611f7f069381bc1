// PlainRequestLine.swift: a request line of bare ASCII words, split without making Strings.

/// A request line made only of bare printable-ASCII tokens (no quotes, no
/// backslashes, no payload marker), split into token ranges of the line's
/// own bytes.
///
/// Nearly every request a program sends looks like this (`TAP intro 30 10`),
/// and splitting it costs one pass over its bytes with no allocation. A
/// command whose arguments can be read straight from the bytes (the
/// server's typed commands) reads them so; any other command gets
/// ``request()``, which is exactly what ``RequestParser/parse(_:)`` makes
/// of the same line.
///
/// A RESP request whose bulk strings are all such tokens is one too (see
/// ``init(respElements:tokens:count:positionalCount:)``): its bytes are the
/// elements joined with spaces, it has no tag, and its ``request()`` is
/// what ``RESP/request(from:)`` makes of the elements.
///
/// The line shares the decoder's buffer: use it before asking the decoder
/// for the next item.
public struct PlainRequestLine: Equatable, Sendable {
    /// One token, as offsets from the line's start: `start..<end`, with
    /// `=` at `equals` for `key=value` (small, since items are copied).
    @usableFromInline
    struct Token: Sendable {
        @usableFromInline var start: UInt16
        @usableFromInline var end: UInt16
        /// Offset of the `=` of a `key=value` token, or ``none``.
        @usableFromInline var equals: UInt16
        @usableFromInline static var none: UInt16 { UInt16.max }

        @usableFromInline
        init(start: UInt16, end: UInt16, equals: UInt16) {
            self.start = start
            self.end = end
            self.equals = equals
        }
    }

    /// ``maximumTokens`` tokens stored inline (no allocation), one lane of
    /// a vector each (start, end and `=` offsets packed into the lane's low
    /// 48 bits): a fixed-size array that Swift 6.0 and iOS 16 can build
    /// (`InlineArray` needs Swift 6.2 and iOS 26). An index past the last
    /// lane traps, as an array's would.
    @usableFromInline
    struct TokenList: Sendable {
        @usableFromInline var lanes = SIMD8<UInt64>(repeating: UInt64(Token.none) << 32)

        @usableFromInline
        init() {}

        @inlinable
        subscript(index: Int) -> Token {
            get {
                let lane = lanes[index]
                return Token(
                    start: UInt16(truncatingIfNeeded: lane), end: UInt16(truncatingIfNeeded: lane >> 16),
                    equals: UInt16(truncatingIfNeeded: lane >> 32))
            }
            set {
                lanes[index] = UInt64(newValue.start) | UInt64(newValue.end) << 16 | UInt64(newValue.equals) << 32
            }
        }
    }

    /// The longest plain line; longer lines are parsed the general way.
    public static let maximumLength = 4096

    /// The most tokens (tag and command included) a plain line may have
    /// (the lanes of a ``TokenList``).
    public static let maximumTokens = 8

    public let bytes: ArraySlice<UInt8>
    @usableFromInline let tokens: TokenList
    @usableFromInline let tokenCount: Int
    @usableFromInline let hasTag: Bool
    /// How the request was framed: a line, or a RESP array (whose
    /// positional arguments count as quoted, as ``RESP/request(from:)`` has them).
    /// (Declared beside `hasTag` so that both share one word.)
    public let framing: Request.Framing
    /// How many positional (not `key=value`) arguments there are.
    public let positionalCount: Int

    /// Splits `line`, or returns nil if it is not plain: a byte outside
    /// printable ASCII other than space and tab, a `"` or `\`, more than
    /// ``maximumTokens`` tokens, a token that starts with `{` or `<` (which
    /// may announce a payload, `{N}` or `<<WORD`, wherever it stands: the
    /// decoder reads or refuses it), a key=value command or a tag without
    /// a command. Blank lines are not plain either.
    public init?(_ line: ArraySlice<UInt8>) {
        guard let shape = Self.shape(of: line) else { return nil }
        self.init(line, shape: shape)
    }

    /// What splitting a line found: its tokens and how to read them.
    @usableFromInline
    struct Shape {
        @usableFromInline let tokens: TokenList
        @usableFromInline let tokenCount: Int
        @usableFromInline let hasTag: Bool
        @usableFromInline let positionalCount: Int
    }

    /// ``init(_:)`` in two steps, so that a decoder can hand its line over
    /// (no reference count) once it knows the line is plain: the shape of
    /// `line`, or nil if it is not plain.
    static func shape(of line: ArraySlice<UInt8>) -> Shape? {
        guard line.count <= Self.maximumLength else { return nil }
        var tokens = TokenList()
        guard let count = line.withUnsafeBufferPointer({ Self.split($0, into: &tokens) }), count > 0 else { return nil }
        let hasTag = line[line.startIndex + Int(tokens[0].start)] == UInt8(ascii: "@") && tokens[0].equals == Token.none
        let commandIndex = hasTag ? 1 : 0
        guard commandIndex < count, tokens[commandIndex].equals == Token.none else { return nil }
        var positionalCount = 0
        for i in (commandIndex + 1)..<count where tokens[i].equals == Token.none { positionalCount += 1 }
        return Shape(tokens: tokens, tokenCount: count, hasTag: hasTag, positionalCount: positionalCount)
    }

    /// A line whose ``shape(of:)`` is `shape`.
    init(_ line: consuming ArraySlice<UInt8>, shape: Shape) {
        self.bytes = line
        self.tokens = shape.tokens
        self.tokenCount = shape.tokenCount
        self.hasTag = shape.hasTag
        self.positionalCount = shape.positionalCount
        self.framing = .line
    }

    /// A RESP request's plain elements, already joined and split by the
    /// decoder (see ``RESP/Elements``): `bytes` is the elements with one
    /// space between each, `tokens` their ranges, the first the command.
    init(respElements bytes: ArraySlice<UInt8>, tokens: TokenList, count: Int, positionalCount: Int) {
        self.bytes = bytes
        self.tokens = tokens
        self.tokenCount = count
        self.hasTag = false
        self.positionalCount = positionalCount
        self.framing = .resp
    }

    /// The tokens of `buffer`, or nil if a byte or the count rules the line out.
    private static func split(_ buffer: UnsafeBufferPointer<UInt8>, into tokens: inout TokenList) -> Int? {
        byteKinds.withUnsafeBufferPointer { kinds in split(buffer, kinds: kinds, into: &tokens) }
    }

    /// ``split(_:into:)`` with the byte table in hand (read once per line, not per byte).
    @inline(__always)
    private static func split(
        _ buffer: UnsafeBufferPointer<UInt8>, kinds: UnsafeBufferPointer<ByteKind>, into tokens: inout TokenList
    ) -> Int? {
        var tokenCount = 0
        var index = 0
        let count = buffer.count
        guard let bytes = buffer.baseAddress, let byteKinds = kinds.baseAddress, kinds.count == 256 else { return count == 0 ? 0 : nil }
        while index < count {
            var kind = byteKinds[Int(bytes[index])]
            if kind == .separator {
                index += 1
                continue
            }
            // A token that may announce a payload is the decoder's to read.
            guard tokenCount < Self.maximumTokens, kind != .payloadMark else { return nil }
            let start = index
            var equals = -1
            while true {
                if kind == .other { return nil }
                if kind == .equals && equals < 0 { equals = index }
                index += 1
                // The bulk of a token: word bytes, one test each.
                while index < count && byteKinds[Int(bytes[index])] == .word { index += 1 }
                guard index < count else { break }
                kind = byteKinds[Int(bytes[index])]
                if kind == .separator { break }
            }
            var isKeyValue = false
            if equals > start {
                isKeyValue = RequestParser.isKeyByte(bytes[start], first: true)
                var i = start + 1
                while isKeyValue && i < equals {
                    isKeyValue = RequestParser.isKeyByte(bytes[i], first: false)
                    i += 1
                }
            }
            tokens[tokenCount] = Token(
                start: UInt16(start), end: UInt16(index), equals: isKeyValue ? UInt16(equals) : Token.none)
            tokenCount += 1
        }
        return tokenCount
    }

    enum ByteKind: UInt8 {
        /// Space or tab.
        case separator
        /// A byte of a plain token.
        case word
        case equals
        /// `{` and `<`: a plain byte inside a token; a token that starts
        /// with one rules the line out (it may announce a payload).
        case payloadMark
        /// Anything that rules the line out: controls, DEL, non-ASCII, `"` and `\`.
        case other
    }

    static let byteKinds: [ByteKind] = (0...255).map { byte -> ByteKind in
        switch byte {
        case 0x20, 0x09: return .separator
        case Int(UInt8(ascii: "=")): return .equals
        case Int(UInt8(ascii: "\"")), Int(UInt8(ascii: "\\")): return .other
        case Int(UInt8(ascii: "{")), Int(UInt8(ascii: "<")): return .payloadMark
        case 0x21..<0x7F: return .word
        default: return .other
        }
    }

    /// The tag token (`@7`), if the line has one.
    public var tag: ArraySlice<UInt8>? {
        hasTag ? slice(tokens[0].start, tokens[0].end) : nil
    }

    /// The tag as a String, if any (for replies that echo it).
    public var tagString: String? {
        tag.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The command name's bytes as written.
    public var command: ArraySlice<UInt8> {
        let token = tokens[hasTag ? 1 : 0]
        return slice(token.start, token.end)
    }

    /// Whether the command name is `name` (upper-case ASCII bytes), ignoring case.
    public func commandIs(_ name: [UInt8]) -> Bool {
        let written = command
        guard written.count == name.count else { return false }
        var i = 0
        for byte in written {
            let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
            if upper != name[i] { return false }
            i += 1
        }
        return true
    }

    /// The command name upper-cased (ASCII letters only, as ``commandIs(_:)``)
    /// and packed into a word, first byte lowest; nil for names longer than
    /// 8 bytes. A command table finds a name with one comparison of these.
    public var commandWord: UInt64? {
        let token = tokens[hasTag ? 1 : 0]
        return bytes.withUnsafeBufferPointer { buffer in
            Self.commandWord(UnsafeBufferPointer(rebasing: buffer[Int(token.start)..<Int(token.end)]))
        }
    }

    /// ``commandWord`` of a name's bytes.
    public static func commandWord<Name: Collection<UInt8>>(_ name: Name) -> UInt64? {
        guard name.count <= 8 else { return nil }
        var word: UInt64 = 0
        var shift: UInt64 = 0
        for byte in name {
            let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
            word |= UInt64(upper) << shift
            shift += 8
        }
        return word
    }

    /// Tokens after the command.
    @inlinable var argumentTokens: Range<Int> { (hasTag ? 2 : 1)..<tokenCount }

    /// How many `key=value` arguments there are.
    public var keyedCount: Int { argumentTokens.count - positionalCount }

    /// The `n`-th positional argument's bytes.
    @inlinable
    public func positional(_ n: Int) -> ArraySlice<UInt8>? {
        positionalIndices(n).map { bytes[$0] }
    }

    /// The indices in ``bytes`` of the `n`-th positional argument. For a
    /// hot path: `line.bytes[indices]` retains the buffer once, where the
    /// optimizer may copy the whole line to return ``positional(_:)``.
    @inlinable @inline(__always)
    public func positionalIndices(_ n: Int) -> Range<Int>? {
        guard let range = arguments.positionalRange(n) else { return nil }
        return (bytes.startIndex + range.lowerBound)..<(bytes.startIndex + range.upperBound)
    }

    /// The value of the last `key=value` argument whose key is `key` (exact bytes, as ``Request/value(for:)``).
    public func value(for key: StaticString) -> ArraySlice<UInt8>? {
        bytes.withUnsafeBufferPointer { buffer in arguments.valueRange(for: key, in: buffer) }
            .map { bytes[(bytes.startIndex + $0.lowerBound)..<(bytes.startIndex + $0.upperBound)] }
    }

    /// Calls `body` with the key of each `key=value` argument, in order,
    /// as the line's own bytes (valid only inside the call).
    public func forEachKey(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try bytes.withUnsafeBufferPointer { buffer in
            for i in argumentTokens where tokens[i].equals != Token.none {
                try body(UnsafeBufferPointer(rebasing: buffer[Int(tokens[i].start)..<Int(tokens[i].equals)]))
            }
        }
    }

    /// Runs `body` with the arguments read in place: what ``Arguments``
    /// hands out points into the line's bytes and retains nothing, which
    /// matters to a handler that reads several arguments per request.
    @inlinable
    public func withArguments<R>(_ body: (Arguments) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { try body(Arguments(tokens: arguments, buffer: $0)) }
    }

    @inlinable var arguments: ArgumentTokens {
        ArgumentTokens(tokens: tokens, range: argumentTokens, positionalCount: positionalCount)
    }

    /// The argument tokens of a line, as offsets from its start.
    @usableFromInline
    struct ArgumentTokens {
        @usableFromInline let tokens: TokenList
        @usableFromInline let range: Range<Int>
        @usableFromInline let positionalCount: Int

        @inlinable
        init(tokens: TokenList, range: Range<Int>, positionalCount: Int) {
            self.tokens = tokens
            self.range = range
            self.positionalCount = positionalCount
        }

        @inlinable @inline(__always)
        func positionalRange(_ n: Int) -> Range<Int>? {
            guard n >= 0, n < positionalCount else { return nil }
            if positionalCount == range.count {
                // No key=value arguments (the common case): the n-th argument.
                let token = tokens[range.lowerBound + n]
                return Int(token.start)..<Int(token.end)
            }
            var seen = 0
            for i in range where tokens[i].equals == Token.none {
                if seen == n { return Int(tokens[i].start)..<Int(tokens[i].end) }
                seen += 1
            }
            return nil
        }

        func valueRange(for key: StaticString, in buffer: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
            var found: Range<Int>?
            for i in range where tokens[i].equals != Token.none {
                let token = tokens[i]
                let written = UnsafeBufferPointer(rebasing: buffer[Int(token.start)..<Int(token.equals)])
                if key.withUTF8Buffer({ written.elementsEqual($0) }) { found = (Int(token.equals) + 1)..<Int(token.end) }
            }
            return found
        }
    }

    /// A line's arguments over its bytes in place (see ``withArguments(_:)``);
    /// valid only inside that call.
    public struct Arguments {
        @usableFromInline let tokens: ArgumentTokens
        @usableFromInline let buffer: UnsafeBufferPointer<UInt8>

        @usableFromInline
        init(tokens: ArgumentTokens, buffer: UnsafeBufferPointer<UInt8>) {
            self.tokens = tokens
            self.buffer = buffer
        }

        @inlinable public var positionalCount: Int { tokens.positionalCount }
        @inlinable public var keyedCount: Int { tokens.range.count - tokens.positionalCount }

        /// The `n`-th positional argument's bytes.
        @inlinable @inline(__always)
        public func positional(_ n: Int) -> UnsafeBufferPointer<UInt8>? {
            tokens.positionalRange(n).map { UnsafeBufferPointer(rebasing: buffer[$0]) }
        }

        /// The value of the last `key=value` argument whose key is `key`.
        public func value(for key: StaticString) -> UnsafeBufferPointer<UInt8>? {
            tokens.valueRange(for: key, in: buffer).map { UnsafeBufferPointer(rebasing: buffer[$0]) }
        }
    }

    /// The request ``RequestParser/parse(_:)`` makes of this line, or for
    /// RESP framing the one ``RESP/request(from:)`` makes of its elements.
    public func request() -> Request {
        let quoted = framing == .resp
        var arguments: [Argument] = []
        arguments.reserveCapacity(argumentTokens.count)
        for i in argumentTokens {
            let token = tokens[i]
            if token.equals != Token.none {
                arguments.append(Argument(
                    key: String(decoding: slice(token.start, token.equals), as: UTF8.self),
                    value: String(decoding: slice(token.equals + 1, token.end), as: UTF8.self)))
            } else {
                arguments.append(Argument(value: String(decoding: slice(token.start, token.end), as: UTF8.self), quoted: quoted))
            }
        }
        var request = Request(tag: tagString, command: String(decoding: command, as: UTF8.self), arguments: arguments)
        request.framing = framing
        return request
    }

    public static func == (lhs: PlainRequestLine, rhs: PlainRequestLine) -> Bool {
        lhs.framing == rhs.framing && lhs.bytes.elementsEqual(rhs.bytes)
    }

    private func slice(_ start: UInt16, _ end: UInt16) -> ArraySlice<UInt8> {
        bytes[(bytes.startIndex + Int(start))..<(bytes.startIndex + Int(end))]
    }
}
