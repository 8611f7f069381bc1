// ReplyReader.swift: the daemon's byte stream, cut into replies and events.

import LecternProtocol

/// Turns the bytes a daemon sends into complete replies and event lines.
///
/// A small state machine over LecternProtocol's ``LineDecoder``: data lines
/// (`* …`) are collected until the final line (`[@tag] OK …` or
/// `[@tag] ERR CODE sentence`) completes the reply; a literal data line
/// `* {N}` switches to taking exactly N raw bytes and the CRLF after them;
/// event lines (`! …`) come out on their own, and since the daemon never
/// writes one inside a reply they never split one.
///
/// - Complexity: amortised O(n) in the bytes appended.
struct ReplyReader {
    private var lines: LineDecoder
    private var data: [Reply.DataLine] = []
    private var state = State.line

    private enum State {
        case line
        case literal(count: Int)
        case afterLiteral
    }

    /// `maximumLineLength` bounds one line of a reply; the daemon's own
    /// output limit (64 MiB by default) bounds a whole reply.
    init(maximumLineLength: Int) {
        lines = LineDecoder(maximumLineLength: maximumLineLength)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        lines.append(bytes)
    }

    /// The next complete reply or event, or `nil` until more bytes arrive.
    ///
    /// - Throws: ``LecternError/malformedReply(_:)`` for a line that is none
    ///   of the kinds above, or one past the line limit.
    mutating func next() throws -> ServerMessage? {
        while true {
            switch state {
            case .literal(let count):
                guard let bytes = lines.nextBytes(count: count) else { return nil }
                data.append(.literal(Array(bytes)))
                state = .afterLiteral
            case .afterLiteral:
                // The line end after the literal's bytes: CRLF from lecternd, LF accepted too.
                guard lines.skipOptionalLineEnding() else { return nil }
                state = .line
            case .line:
                let bytes: ArraySlice<UInt8>?
                do {
                    bytes = try lines.next()
                } catch {
                    throw LecternError.malformedReply("a reply line longer than \(lines.maximumLineLength) bytes")
                }
                guard let bytes else { return nil }
                if let message = try take(String(decoding: bytes, as: UTF8.self)) { return message }
            }
        }
    }

    /// Handles one line; returns a message when the line completes one.
    private mutating func take(_ line: String) throws -> ServerMessage? {
        if line.hasPrefix("* ") {
            let text = String(line.dropFirst(2))
            if let count = Self.literalLength(text) {
                state = .literal(count: count)
            } else {
                data.append(.text(text))
            }
            return nil
        }
        if line.hasPrefix("! ") {
            return .event(String(line.dropFirst(2)))
        }
        var rest = Substring(line)
        var tag: String?
        if rest.hasPrefix("@") {
            let end = rest.firstIndex(of: " ") ?? rest.endIndex
            tag = String(rest[..<end])
            rest = rest[end...].drop(while: { $0 == " " })
        }
        defer { data = [] }
        if rest == "OK" || rest.hasPrefix("OK ") {
            return .ok(Reply(tag: tag, text: String(rest.dropFirst(2).drop(while: { $0 == " " })), data: data))
        }
        if rest.hasPrefix("ERR ") {
            let words = rest.dropFirst(4).split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard let code = words.first, !code.isEmpty else { throw LecternError.malformedReply(line) }
            return .failure(tag: tag, code: LecternErrorCode(rawValue: String(code)), message: words.count > 1 ? String(words[1]) : "")
        }
        throw LecternError.malformedReply(line)
    }

    /// `{N}` → N, for a literal data line; anything else → nil.
    private static func literalLength(_ text: String) -> Int? {
        guard text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2 else { return nil }
        let digits = text.dropFirst().dropLast()
        guard digits.count <= 15, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}
