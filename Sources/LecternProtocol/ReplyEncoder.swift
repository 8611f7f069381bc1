// ReplyEncoder.swift: the bytes of replies and events.

/// Encodes replies into a connection's output bytes.
///
/// A reply is zero or more data lines (`* …`, or a literal `* {N}` followed
/// by N bytes) and exactly one final status line: `[@tag ]OK [text]` or
/// `[@tag ]ERR CODE sentence`. Asynchronous events are `! …` lines written
/// between replies. Every line ends with CRLF. Text that could contain a line break goes through ``quote(_:)``.
public enum ReplyEncoder {
    /// Appends a data line: `* ` and `text`. `text` must not contain CR or LF.
    public static func data(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "*"))
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: text.utf8)
        crlf(&output)
    }

    /// Appends a literal data line: `* {N}`, CRLF, the N bytes, CRLF.
    /// Exact bytes (a document's text, an SVG) travel this way.
    public static func literal(_ bytes: [UInt8], into output: inout [UInt8]) {
        output.append(contentsOf: "* {\(bytes.count)}".utf8)
        crlf(&output)
        output.append(contentsOf: bytes)
        crlf(&output)
    }

    /// Appends an event line: `! ` and `text` (CR/LF-free).
    public static func event(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "!"))
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: text.utf8)
        crlf(&output)
    }

    /// Appends the final `OK` line.
    public static func ok(_ text: String = "", tag: String?, into output: inout [UInt8]) {
        tagPrefix(tag, &output)
        output.append(contentsOf: "OK".utf8)
        if !text.isEmpty {
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: text.utf8)
        }
        crlf(&output)
    }

    /// Appends the start of a final `OK` line with text, `[tag ]OK `, for
    /// a caller that writes the text and the CRLF itself.
    public static func okPrefix(tag: String?, into output: inout [UInt8]) {
        tagPrefix(tag, &output)
        output.append(UInt8(ascii: "O"))
        output.append(UInt8(ascii: "K"))
        output.append(UInt8(ascii: " "))
    }

    /// Appends the final `ERR` line.
    public static func error(_ error: ProtocolError, tag: String?, into output: inout [UInt8]) {
        tagPrefix(tag, &output)
        output.append(contentsOf: "ERR ".utf8)
        output.append(contentsOf: error.code.rawValue.utf8)
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: error.message.utf8)
        crlf(&output)
    }

    /// `text` as a quoted string that the request parser reads back exactly:
    /// `"` and `\` are escaped, as are CR, LF, tab, NUL and the other C0
    /// controls and DEL (as `\u{…}`); everything else is written as is.
    ///
    /// - Complexity: O(n).
    public static func quote(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for s in text.unicodeScalars {
            switch s {
            case "\"": out.append(contentsOf: #"\""#.unicodeScalars)
            case "\\": out.append(contentsOf: #"\\"#.unicodeScalars)
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            case "\0": out.append(contentsOf: #"\0"#.unicodeScalars)
            case _ where s.value < 0x20 || s.value == 0x7F:
                out.append(contentsOf: "\\u{\(String(s.value, radix: 16))}".unicodeScalars)
            default: out.append(s)
            }
        }
        out.append("\"")
        return String(out)
    }

    private static func tagPrefix(_ tag: String?, _ output: inout [UInt8]) {
        guard let tag else { return }
        output.append(contentsOf: tag.utf8)
        output.append(UInt8(ascii: " "))
    }

    private static func crlf(_ output: inout [UInt8]) {
        output.append(0x0D)
        output.append(0x0A)
    }
}
