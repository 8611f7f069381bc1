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

    /// A request from its bulk strings: the first is the command; each of
    /// the others is one argument, exactly as sent (no quoting: RESP is
    /// binary-safe), or `key=value` when it has that shape.
    static func request(from elements: [[UInt8]]) throws -> Request {
        var arguments: [Argument] = []
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            if element.contains(0) && index == 0 {
                throw ProtocolError(.binary, "a command name cannot contain a NUL byte")
            }
            if let bad = firstInvalidUTF8Offset(in: element) {
                throw ProtocolError(.invalidUTF8, "argument \(index) is not valid UTF-8 at byte \(bad)")
            }
            strings.append(String(decoding: element, as: UTF8.self))
        }
        guard let command = strings.first, !command.isEmpty else {
            throw ProtocolError(.syntax, "a request starts with a command name, as in 'PING'")
        }
        for value in strings.dropFirst() {
            if let equals = value.firstIndex(of: "="), equals != value.startIndex,
                value[..<equals].unicodeScalars.enumerated().allSatisfy({ isKeyCharacter($0.element, first: $0.offset == 0) })
            {
                arguments.append(Argument(key: String(value[..<equals]), value: String(value[value.index(after: equals)...])))
            } else {
                arguments.append(Argument(value: value, quoted: true))
            }
        }
        var request = Request(command: command, arguments: arguments)
        request.framing = .resp
        return request
    }

    private static func isKeyCharacter(_ s: Unicode.Scalar, first: Bool) -> Bool {
        switch s {
        case "a"..."z", "A"..."Z", "_": return true
        case "0"..."9", "-", ".": return !first
        default: return false
        }
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
        output.append(contentsOf: String(value).utf8)
        crlf(&output)
    }

    /// `$n` and the bytes.
    public static func bulkString<Bytes: Collection>(_ bytes: Bytes, into output: inout [UInt8]) where Bytes.Element == UInt8 {
        output.append(UInt8(ascii: "$"))
        output.append(contentsOf: String(bytes.count).utf8)
        crlf(&output)
        output.append(contentsOf: bytes)
        crlf(&output)
    }

    /// An aggregate header: `*n` (array), `>n` (RESP3 push) or `%n` (RESP3 map).
    public static func header(_ marker: Character, count: Int, into output: inout [UInt8]) {
        output.append(contentsOf: String(marker).utf8)
        output.append(contentsOf: String(count).utf8)
        crlf(&output)
    }

    private static func crlf(_ output: inout [UInt8]) {
        output.append(0x0D)
        output.append(0x0A)
    }
}
