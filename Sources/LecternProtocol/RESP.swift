// RESP.swift: Redis's serialization protocol, for requests from Redis
// clients and for replies to them.

/// RESP (REdis Serialization Protocol) framing: requests that arrive as
/// arrays of bulk strings (what `redis-cli`, `redis-benchmark` and Redis
/// client libraries send), and the RESP2/RESP3 encodings of replies.
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

    private static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        var negative = false
        for (index, byte) in digits.enumerated() {
            if index == 0 && byte == UInt8(ascii: "-") && digits.count > 1 {
                negative = true
                continue
            }
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return negative ? -value : value
    }

    /// The bulk strings of a request being read, decoded as they arrive.
    struct Elements: Sendable {
        var strings: [String] = []
        /// The first element that is not UTF-8, and the offset of its bad byte.
        var invalid: (index: Int, offset: Int)?
        var commandHasNul = false

        init(capacity: Int) { strings.reserveCapacity(min(capacity, 64)) }

        mutating func append(_ bytes: ArraySlice<UInt8>) {
            if let string = String(validating: bytes, as: UTF8.self) {
                if strings.isEmpty && bytes.contains(0) { commandHasNul = true }
                strings.append(string)
            } else {
                if invalid == nil { invalid = (strings.count, firstInvalidUTF8Offset(in: bytes) ?? 0) }
                strings.append("")
            }
        }
    }

    /// A request from its bulk strings: the first is the command; each of
    /// the others is one argument, exactly as sent (no quoting: RESP is
    /// binary-safe), or `key=value` when it has that shape.
    static func request(from elements: Elements) throws -> Request {
        if elements.commandHasNul {
            throw ProtocolError(.binary, "a command name cannot contain a NUL byte")
        }
        if let (index, offset) = elements.invalid {
            throw ProtocolError(.invalidUTF8, "argument \(index) is not valid UTF-8 at byte \(offset)")
        }
        guard let command = elements.strings.first, !command.isEmpty else {
            throw ProtocolError(.syntax, "a request starts with a command name, as in 'PING'")
        }
        var arguments: [Argument] = []
        arguments.reserveCapacity(elements.strings.count - 1)
        for value in elements.strings.dropFirst() {
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


    // MARK: Encoding

    /// `+text` (no CR or LF in `text`).
    public static func simpleString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "+"))
        output.append(contentsOf: text.utf8)
        crlf(&output)
    }

    /// `-CODE sentence`.
    public static func error(_ error: ProtocolError, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "-"))
        output.append(contentsOf: error.code.rawValue.utf8)
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: error.message.utf8)
        crlf(&output)
    }

    /// `:n`.
    public static func integer(_ value: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: ":"))
        appendDecimal(value, into: &output)
        crlf(&output)
    }

    /// `$n` and the bytes.
    public static func bulkString(_ bytes: [UInt8], into output: inout [UInt8]) {
        bulkHeader(bytes.count, into: &output)
        output.append(contentsOf: bytes)
        crlf(&output)
    }

    /// `$n` and the text's UTF-8 bytes.
    public static func bulkString(_ text: String, into output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            bulkHeader(bytes.count, into: &output)
            output.append(contentsOf: bytes)
        }
        crlf(&output)
    }

    private static func bulkHeader(_ count: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "$"))
        appendDecimal(count, into: &output)
        crlf(&output)
    }

    /// A non-negative or negative integer in ASCII, without a String.
    public static func appendDecimal(_ value: Int, into output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            output.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// An aggregate header: `*n` (array), `>n` (RESP3 push) or `%n` (RESP3 map).
    public static func header(_ marker: UInt8, count: Int, into output: inout [UInt8]) {
        output.append(marker)
        appendDecimal(count, into: &output)
        crlf(&output)
    }

    private static func crlf(_ output: inout [UInt8]) {
        output.append(0x0D)
        output.append(0x0A)
    }
}
