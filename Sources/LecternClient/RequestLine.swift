// RequestLine.swift: the bytes of one request, built token by token.

import LecternProtocol

/// Builds one request: `@tag COMMAND argument… [{N}]`, plus an optional
/// literal payload sent byte for byte after the line.
///
/// Values that the daemon would read as something else — anything with a
/// space, quote, `=`, a leading `@`, `{` or `<`, or a character outside a
/// small safe set — are written as quoted strings with LecternProtocol's
/// ``ReplyEncoder/quote(_:)``, whose escapes ``RequestParser`` reverses
/// exactly; everything else goes bare so logs stay readable.
struct RequestLine: Sendable {
    /// The command name, upper-case (`PUT`).
    let command: String
    private var tokens: [String] = []
    /// Bytes sent as a literal `{N}` after the line.
    private(set) var payload: [UInt8]?

    init(_ command: String) { self.command = command }

    /// Appends a positional argument.
    mutating func word(_ value: String) {
        tokens.append(Self.token(value))
    }

    /// Appends `key=value`.
    mutating func option(_ key: String, _ value: String) {
        tokens.append("\(key)=\(Self.token(value))")
    }

    /// Appends each `key=value`.
    mutating func options(_ pairs: [(String, String)]) {
        for (key, value) in pairs { option(key, value) }
    }

    /// Sends `bytes` as a literal payload (`{N}` ends the line).
    mutating func literal(_ bytes: [UInt8]) {
        payload = bytes
    }

    /// The request's bytes with `@tag` in front, LF-terminated.
    func encoded(tag: Int) -> [UInt8] {
        var line = "@\(tag) \(command)"
        for token in tokens { line += " \(token)" }
        if let payload { line += " {\(payload.count)}" }
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        if let payload {
            bytes.append(contentsOf: payload)
            bytes.append(0x0A)
        }
        return bytes
    }

    private static func token(_ value: String) -> String {
        isBare(value) ? value : ReplyEncoder.quote(value)
    }

    private static func isBare(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, first != "@" else { return false }
        return value.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", ":", "/", ",", ";", "|", "+": return true
            default: return false
            }
        }
    }
}
