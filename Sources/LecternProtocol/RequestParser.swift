// RequestParser.swift: tokenising one request line.

/// Turns one request line (without its line ending) into a ``Request``.
///
/// Quoted strings use `"` and these escapes: `\\`, `\"`, `\n`, `\r`, `\t`,
/// `\0` and `\u{1F600}` (one to six hex digits, a Unicode scalar value). Any
/// other backslash sequence is a syntax error, so a typo never silently turns
/// into different text.
///
/// A line that holds only spaces and tabs yields `nil`: people press Enter in
/// netcat, and that is not a request.
public enum RequestParser {
    /// Parses `line`.
    ///
    /// - Throws: ``ProtocolError`` with `.binary` for a NUL byte, `.invalidUTF8`
    ///   with the byte offset of the first bad byte, `.syntax` for bad quoting.
    ///   The error's ``ProtocolError`` carries no tag; use ``tag(of:)`` to
    ///   echo the tag on an error reply.
    /// - Complexity: O(n) in the line's length.
    public static func parse(_ line: ArraySlice<UInt8>) throws -> Request? {
        var hasQuoteOrEscape = false
        for byte in line {
            if byte == 0 { throw ProtocolError(.binary, "request contains a NUL byte; this is a text protocol") }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { hasQuoteOrEscape = true }
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            throw ProtocolError(.invalidUTF8, "request is not valid UTF-8 at byte \(firstInvalidUTF8Offset(in: line) ?? 0)")
        }
        var tokens: [Argument] = []
        if hasQuoteOrEscape {
            var scanner = Scanner(scalars: Array(text.unicodeScalars))
            while let token = try scanner.nextToken() { tokens.append(token) }
        } else {
            tokens = plainTokens(line)
        }
        guard !tokens.isEmpty else { return nil }

        var tag: String?
        if let first = tokens.first, first.key == nil, !first.quoted, first.value.hasPrefix("@") {
            tag = first.value
            tokens.removeFirst()
        }
        guard let command = tokens.first else {
            throw ProtocolError(.syntax, "a tag must be followed by a command, as in '@1 PING'")
        }
        guard command.key == nil, !command.quoted else {
            throw ProtocolError(.syntax, "a request starts with a command name, as in 'PING'")
        }
        return Request(tag: tag, command: command.value, arguments: Array(tokens.dropFirst()))
    }

    /// The tokens of a valid UTF-8 line without quotes or backslashes: the
    /// common case, split without decoding scalars one by one.
    private static func plainTokens(_ line: ArraySlice<UInt8>) -> [Argument] {
        var tokens: [Argument] = []
        var index = line.startIndex
        while index < line.endIndex {
            while index < line.endIndex, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
            guard index < line.endIndex else { break }
            let start = index
            var equals: Int?
            var keyIsIdentifier = true
            while index < line.endIndex, line[index] != 0x20 && line[index] != 0x09 {
                let byte = line[index]
                if equals == nil {
                    if byte == UInt8(ascii: "=") {
                        equals = index
                    } else if !(byte < 0x80 && isKeyByte(byte, first: index == start)) {
                        keyIsIdentifier = false
                    }
                }
                index += 1
            }
            let token = line[start..<index]
            if let equals, equals > start, keyIsIdentifier {
                tokens.append(Argument(
                    key: String(decoding: line[start..<equals], as: UTF8.self),
                    value: String(decoding: line[(equals + 1)..<index], as: UTF8.self)))
            } else {
                tokens.append(Argument(value: String(decoding: token, as: UTF8.self)))
            }
        }
        return tokens
    }

    static func isKeyCharacter(_ s: Unicode.Scalar, first: Bool) -> Bool {
        s.isASCII && isKeyByte(UInt8(s.value), first: first)
    }

    /// Whether an ASCII byte may appear in a `key=` name: a letter or `_`,
    /// then also digits, `-` and `.`.
    @inline(__always)
    static func isKeyByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): return !first
        default: return false
        }
    }

    /// The tag of a line that may not parse, so that even its error reply can
    /// be matched by a pipelining client. Only a leading bare `@token` counts.
    public static func tag(of line: ArraySlice<UInt8>) -> String? {
        let start = line.drop(while: { $0 == 0x20 || $0 == 0x09 })
        guard start.first == UInt8(ascii: "@") else { return nil }
        let token = start.prefix(while: { $0 != 0x20 && $0 != 0x09 })
        guard firstInvalidUTF8Offset(in: token) == nil, !token.contains(0) else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

        static func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" }


        mutating func nextToken() throws -> Argument? {
            while index < scalars.count, Self.isSpace(scalars[index]) { index += 1 }
            guard index < scalars.count else { return nil }
            if scalars[index] == "\"" {
                return Argument(value: try quoted(), quoted: true)
            }
            // A bare token, possibly key=value.
            let start = index
            var keyEnd: Int?
            while index < scalars.count, !Self.isSpace(scalars[index]) {
                let s = scalars[index]
                if s == "=", keyEnd == nil, index > start,
                    scalars[start..<index].enumerated().allSatisfy({
                        RequestParser.isKeyCharacter($0.element, first: $0.offset == 0)
                    })
                {
                    keyEnd = index
                    index += 1
                    if index < scalars.count, scalars[index] == "\"" {
                        let key = string(start..<(keyEnd ?? index))
                        let value = try quoted()
                        if index < scalars.count, !Self.isSpace(scalars[index]) {
                            throw ProtocolError(.syntax, "expected a space after the closing quote of \(key)=")
                        }
                        return Argument(key: key, value: value, quoted: true)
                    }
                    continue
                }
                if s == "\"" {
                    throw ProtocolError(.syntax, "a quote can only open a token or a value after '=' (column \(index + 1))")
                }
                index += 1
            }
            if let keyEnd {
                return Argument(key: string(start..<keyEnd), value: string((keyEnd + 1)..<index))
            }
            return Argument(value: string(start..<index))
        }

        private func string(_ range: Range<Int>) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[range])
            return String(s)
        }

        /// Reads a quoted string starting at the opening quote.
        private mutating func quoted() throws -> String {
            let open = index
            index += 1
            var result = String.UnicodeScalarView()
            while index < scalars.count {
                let s = scalars[index]
                index += 1
                switch s {
                case "\"":
                    if index < scalars.count, !Self.isSpace(scalars[index]) {
                        throw ProtocolError(.syntax, "expected a space after the closing quote (column \(index))")
                    }
                    return String(result)
                case "\\":
                    result.append(try escape())
                default:
                    result.append(s)
                }
            }
            throw ProtocolError(.syntax, "unterminated quoted string starting at column \(open + 1)")
        }

        private mutating func escape() throws -> Unicode.Scalar {
            guard index < scalars.count else {
                throw ProtocolError(.syntax, "a backslash ends the line; write \\\\ for a backslash")
            }
            let s = scalars[index]
            index += 1
            switch s {
            case "\\": return "\\"
            case "\"": return "\""
            case "n": return "\n"
            case "r": return "\r"
            case "t": return "\t"
            case "0": return "\0"
            case "u":
                guard index < scalars.count, scalars[index] == "{" else {
                    throw ProtocolError(.syntax, "expected \\u{hex} (column \(index))")
                }
                index += 1
                var digits = ""
                while index < scalars.count, scalars[index] != "}", digits.unicodeScalars.count < 7 {
                    digits.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard index < scalars.count, scalars[index] == "}", (1...6).contains(digits.count),
                    let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value)
                else {
                    throw ProtocolError(.syntax, "\\u{\(digits)} is not a Unicode scalar value in hex")
                }
                index += 1
                return scalar
            default:
                throw ProtocolError(.syntax, "unknown escape \\\(s) (known: \\\\ \\\" \\n \\r \\t \\0 \\u{hex})")
            }
        }
    }
}
