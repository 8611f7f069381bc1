// ReplyFramer.swift: splits the bytes a server sends into replies and events.

import LecternProtocol

/// One complete thing the server said: a reply, or an event line (`! …`).
enum Frame: Equatable {
    case reply(Reply)
    case event([UInt8])
}

/// A whole reply: its data lines (each with its `* ` prefix; a literal's
/// bytes stand in for its `* {N}` line), then its final line.
struct Reply: Equatable {
    var dataLines: [[UInt8]] = []
    var finalLine: [UInt8] = []
}

/// Reassembles replies from a byte stream, incrementally.
///
/// In `.lectern` framing (PROTOCOL.md, "Replies" and "Events") a reply is
/// data lines (`* …`; `* {N}` announces N raw bytes and a CRLF) up to one
/// final line (`[@tag] OK …` or `[@tag] ERR …`), and `! …` lines are events
/// between replies. In `.singleLine` framing (the raw scenario, for other
/// line protocols such as Redis's inline commands) every line is a reply.
///
/// A line that fits neither is a protocol violation: ``next()`` throws and
/// the stream should be dropped.
///
/// - Complexity: amortised O(n) in the bytes appended.
struct ReplyFramer {
    enum Framing { case lectern, singleLine }

    struct UnexpectedLine: Error, CustomStringConvertible {
        let line: String
        var description: String { "unexpected line from the server: \(line.prefix(120))" }
    }

    let framing: Framing
    private var decoder: LineDecoder
    private var pending = Reply()
    private var literalLength: Int?
    private var expectsLiteralEnd = false

    init(framing: Framing, maximumLineLength: Int = 16 << 20) {
        self.framing = framing
        decoder = LineDecoder(maximumLineLength: maximumLineLength)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        decoder.append(bytes)
    }

    /// The next complete frame, or nil when more bytes are needed.
    mutating func next() throws -> Frame? {
        while true {
            if let length = literalLength {
                guard let bytes = decoder.nextBytes(count: length) else { return nil }
                pending.dataLines.append(Array(bytes))
                literalLength = nil
                expectsLiteralEnd = true
            }
            guard let line = try decoder.next() else { return nil }
            if expectsLiteralEnd {
                expectsLiteralEnd = false
                guard line.isEmpty else { throw UnexpectedLine(line: String(decoding: line, as: UTF8.self)) }
                continue
            }
            if framing == .singleLine {
                return .reply(Reply(dataLines: [], finalLine: Array(line)))
            }
            switch ReplyFramer.kind(of: line) {
            case .data:
                if let length = ReplyFramer.literalLength(line) {
                    literalLength = length
                } else {
                    pending.dataLines.append(Array(line))
                }
            case .event:
                guard pending.dataLines.isEmpty else { throw UnexpectedLine(line: String(decoding: line, as: UTF8.self)) }
                return .event(Array(line))
            case .final:
                pending.finalLine = Array(line)
                let reply = pending
                pending = Reply()
                return .reply(reply)
            case .other:
                throw UnexpectedLine(line: String(decoding: line, as: UTF8.self))
            }
        }
    }

    enum LineKind { case data, event, final, other }

    static func kind(of line: ArraySlice<UInt8>) -> LineKind {
        if line.starts(with: dataPrefix) { return .data }
        if line.starts(with: eventPrefix) { return .event }
        return statusWord(line) == nil ? .other : .final
    }

    /// `OK` or `ERR` when the line (after an optional `@tag`) is a final line.
    static func statusWord(_ line: ArraySlice<UInt8>) -> String? {
        var rest = line
        if rest.first == UInt8(ascii: "@") {
            guard let space = rest.firstIndex(of: UInt8(ascii: " ")) else { return nil }
            rest = rest[(space + 1)...]
        }
        for word in ["OK", "ERR"] where rest.starts(with: word.utf8) {
            let after = rest.index(rest.startIndex, offsetBy: word.utf8.count)
            if after == rest.endIndex || rest[after] == UInt8(ascii: " ") { return word }
        }
        return nil
    }

    /// N for a `* {N}` line.
    private static func literalLength(_ line: ArraySlice<UInt8>) -> Int? {
        guard line.count > 4, line.last == UInt8(ascii: "}"),
            line[line.startIndex + 2] == UInt8(ascii: "{")
        else { return nil }
        let digits = line[(line.startIndex + 3)..<(line.endIndex - 1)]
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    private static let dataPrefix = Array("* ".utf8)
    private static let eventPrefix = Array("! ".utf8)
}
