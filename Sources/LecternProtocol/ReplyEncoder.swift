// ReplyEncoder.swift: quoted strings, as replies write them and requests read them.

/// Text as a quoted string of the protocol (protocol/PROTOCOL.md, "Quoted
/// strings"). Replies and events themselves are framed by ``ReplyWriter``.
public enum ReplyEncoder {
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
}
