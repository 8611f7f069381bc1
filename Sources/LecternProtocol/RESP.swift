// RESP.swift: Redis's serialization protocol, for requests from Redis clients.

/// RESP (REdis Serialization Protocol) framing of requests: arrays of bulk
/// strings (what `redis-cli`, `redis-benchmark` and Redis client libraries
/// send). Replies to them are framed by ``ReplyWriter`` (RESP2 and RESP3).
///
/// Limits are Redis's: at most ``maximumArrayLength`` elements per request
/// (Redis's multibulk limit), bulk strings no longer than the daemon's
/// payload limit (Redis: `proto-max-bulk-len`), and no nesting — a request
/// is a flat array of bulk strings.
public enum RESP {
    /// The most elements a request array may have (as Redis).
    public static let maximumArrayLength = 1024 * 1024

    /// The element count from a `*N` header line.
    static func arrayLength(_ header: ArraySlice<UInt8>) throws -> Int {
        guard header.first == UInt8(ascii: "*"), let count = integer(header.dropFirst()) else {
            throw ProtocolError(.syntax, "RESP protocol error: invalid multibulk length; closing")
        }
        guard count <= maximumArrayLength else {
            throw ProtocolError(.syntax, "RESP protocol error: multibulk length \(count) is over \(maximumArrayLength); closing")
        }
        return count
    }

    /// The most elements ``wholeArray(in:limit:maximumElements:ranges:scanned:)`` reads; longer
    /// arrays are read by the decoder line by line.
    static let wholeArrayMaximumElements = 16

    /// If `bytes` starts with a whole array request in strict form (`*N`
    /// with 1 ≤ N ≤ `maximumElements` (at most ``wholeArrayMaximumElements``),
    /// then N bulk strings of at most `limit` bytes, every line ending in
    /// CRLF, digits only), its length in bytes, with the elements' ranges
    /// (from the start of `bytes`) in `ranges`. Nil for anything else,
    /// including a request not all here yet and every malformed one: the
    /// decoder's line-by-line reading handles those, and says what is wrong.
    ///
    /// - Complexity: O(N) and the header bytes: it never reads a bulk
    ///   string's bytes, only the CRLF after them. `scanned` grows by the
    ///   bytes it looked at.
    static func wholeArray(
        in bytes: UnsafeBufferPointer<UInt8>, limit: Int, maximumElements: Int = wholeArrayMaximumElements,
        ranges: inout [Range<Int>], scanned: inout Int
    ) -> Int? {
        ranges.removeAll(keepingCapacity: true)
        var index = 0
        var looked = 1
        defer { scanned += looked }
        /// The digits at `index` up to CRLF (at most 18), moving past the CRLF.
        func number() -> Int? {
            let start = index
            while index < bytes.count, index - start < 18, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            looked += index - start + 2
            guard index + 1 < bytes.count, bytes[index] == 0x0D, bytes[index + 1] == 0x0A,
                let value = WireNumber.wholeNumber(bytes[start..<index])
            else { return nil }
            index += 2
            return value
        }
        guard bytes.count > 0, bytes[0] == UInt8(ascii: "*") else { return nil }
        index = 1
        guard let count = number(), count >= 1, count <= min(maximumElements, wholeArrayMaximumElements) else { return nil }
        for _ in 0..<count {
            looked += 3
            guard index < bytes.count, bytes[index] == UInt8(ascii: "$") else { return nil }
            index += 1
            guard let length = number(), length <= limit, length <= bytes.count - index - 2 else { return nil }
            guard bytes[index + length] == 0x0D, bytes[index + length + 1] == 0x0A else { return nil }
            ranges.append(index..<(index + length))
            index += length + 2
        }
        return index
    }

    /// The byte count from a `$N` header line.
    static func bulkLength(_ header: ArraySlice<UInt8>, limit: Int) throws -> Int {
        guard let first = header.first else {
            throw ProtocolError(.syntax, "RESP protocol error: expected '$', got an empty line; closing")
        }
        guard first == UInt8(ascii: "$") else {
            let shown = first >= 0x21 && first < 0x7F ? String(UnicodeScalar(first)) : "byte \(first)"
            throw ProtocolError(.syntax, "RESP protocol error: expected '$' (requests are flat arrays of bulk strings), got '\(shown)'; closing")
        }
        guard let length = integer(header.dropFirst()), length >= 0 else {
            throw ProtocolError(.syntax, "RESP protocol error: invalid bulk length; closing")
        }
        guard length <= limit else {
            throw ProtocolError(.payloadTooLarge, "RESP bulk string of \(length) bytes is over the \(limit)-byte payload limit (--max-payload-bytes); closing")
        }
        return length
    }

    /// A RESP integer, `-?digits` (no `+`, as Redis), at most 18 characters.
    private static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
        guard digits.count <= 18, digits.first != UInt8(ascii: "+") else { return nil }
        return WireNumber.integer(digits)
    }

    /// The bulk strings of a request being read, in one byte buffer that
    /// the decoder keeps from request to request: reading a request
    /// allocates nothing once the buffers have grown to fit.
    ///
    /// Elements are stored one after another with a space between each,
    /// so that a request whose elements are all plain tokens (see
    /// ``PlainRequestLine``) reads as the line `TAP doc 120 40`; its
    /// token ranges are worked out as the elements arrive. Strings are
    /// made only by ``RESP/request(from:)``, for requests that are not plain.
    struct Elements: Sendable {
        /// The elements' bytes, separated by one space.
        private(set) var bytes: [UInt8] = []
        /// Where each element ends in ``bytes`` (the next starts one byte later).
        private var ends: [Int] = []
        /// The elements as plain tokens, while ``isPlain``.
        private var tokens = PlainRequestLine.TokenList()
        /// Whether every element so far is a plain token and they still fit a ``PlainRequestLine``.
        private var isPlain = true
        private var positionalCount = 0

        /// How many elements have been appended.
        var count: Int { ends.count }

        /// Forgets the previous request's elements, keeping the buffers
        /// (unless an element made them large).
        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 64 * 1024)
            ends.removeAll(keepingCapacity: ends.capacity <= 1024)
            isPlain = true
            positionalCount = 0
        }

        /// Appends the next element; returns the bytes copied (see
        /// ``Swift/Array/appendCountingCopies(contentsOf:)``).
        @discardableResult
        mutating func append(_ element: ArraySlice<UInt8>) -> Int {
            var copied = 0
            if !ends.isEmpty { copied += bytes.appendCountingCopies(0x20) }
            let start = bytes.count
            copied += bytes.appendCountingCopies(contentsOf: element)
            if isPlain { isPlain = appendToken(element, at: start) }
            ends.append(bytes.count)
            return copied
        }

        /// Gives back storage a large request needed (between requests only:
        /// a ``plainLine()`` shares it).
        mutating func releaseLargeStorage() {
            if bytes.capacity > 64 * 1024 || ends.capacity > 1024 { removeAll() }
        }

        /// Records `element` (stored at `start`) as the next plain token, or
        /// returns false if it is not one: empty, a byte that is not
        /// printable ASCII, a space, `"` or `\`, or past the plain limits.
        private mutating func appendToken(_ element: ArraySlice<UInt8>, at start: Int) -> Bool {
            let index = ends.count
            let end = start + element.count
            guard index < PlainRequestLine.maximumTokens, end <= PlainRequestLine.maximumLength, !element.isEmpty else {
                return false
            }
            let kinds = PlainRequestLine.byteKinds
            var equals = -1
            var offset = 0
            for byte in element {
                switch kinds[Int(byte)] {
                case .word, .payloadMark: break
                case .equals: if equals < 0 { equals = offset }
                case .separator, .other: return false
                }
                offset += 1
            }
            // key=value as RESP.request(from:) splits it; the command never is.
            var isKeyValue = index > 0 && equals > 0
            if isKeyValue {
                var i = element.startIndex
                let keyEnd = i + equals
                while isKeyValue && i < keyEnd {
                    isKeyValue = RequestParser.isKeyByte(element[i], first: i == element.startIndex)
                    i += 1
                }
            }
            if index > 0 && !isKeyValue { positionalCount += 1 }
            tokens[index] = PlainRequestLine.Token(
                start: UInt16(start), end: UInt16(end),
                equals: isKeyValue ? UInt16(start + equals) : PlainRequestLine.Token.none)
            return true
        }

        /// The request as a plain line, if every element is a plain token;
        /// it shares ``bytes``, so it is valid until the next ``removeAll()``.
        func plainLine() -> PlainRequestLine? {
            guard isPlain, !ends.isEmpty else { return nil }
            return PlainRequestLine(
                respElements: bytes[...], tokens: tokens, count: ends.count, positionalCount: positionalCount)
        }

        /// The bytes of element `index`.
        func element(_ index: Int) -> ArraySlice<UInt8> {
            bytes[(index == 0 ? 0 : ends[index - 1] + 1)..<ends[index]]
        }
    }

    /// A request from its bulk strings: the first is the command; each of
    /// the others is one argument, exactly as sent (no quoting: RESP is
    /// binary-safe), or `key=value` when it has that shape.
    static func request(from elements: Elements) throws -> Request {
        guard elements.count > 0 else {
            throw ProtocolError(.syntax, "a request starts with a command name, as in 'PING'")
        }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        var invalid: (index: Int, offset: Int)?
        for index in 0..<elements.count {
            let bytes = elements.element(index)
            if let string = String(validating: bytes, as: UTF8.self) {
                strings.append(string)
            } else {
                if invalid == nil { invalid = (index, firstInvalidUTF8Offset(in: bytes) ?? 0) }
                strings.append("")
            }
        }
        if invalid?.index != 0 && elements.element(0).contains(0) {
            throw ProtocolError(.binary, "a command name cannot contain a NUL byte")
        }
        if let (index, offset) = invalid {
            throw ProtocolError(.invalidUTF8, "argument \(index) is not valid UTF-8 at byte \(offset)")
        }
        let command = strings[0]
        guard !command.isEmpty else {
            throw ProtocolError(.syntax, "a request starts with a command name, as in 'PING'")
        }
        var arguments: [Argument] = []
        arguments.reserveCapacity(strings.count - 1)
        for value in strings.dropFirst() {
            if let keyLength = keyLength(value) {
                let utf8 = value.utf8
                let equals = utf8.index(utf8.startIndex, offsetBy: keyLength)
                arguments.append(Argument(
                    key: String(value[..<equals]), value: String(value[value.index(after: equals)...])))
            } else {
                arguments.append(Argument(value: value, quoted: true))
            }
        }
        var request = Request(command: command, arguments: arguments)
        request.framing = .resp
        return request
    }

    /// The length of `key` when `text` is `key=value` with an identifier key.
    private static func keyLength(_ text: String) -> Int? {
        var length = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") { return length > 0 ? length : nil }
            guard byte < 0x80, RequestParser.isKeyCharacter(Unicode.Scalar(byte), first: length == 0) else { return nil }
            length += 1
        }
        return nil
    }
}
