// ReplyFramer.swift: splits the bytes a server sends into replies and events.

import Glibc
import LecternProtocol

/// One complete thing the server said, copied out of the stream: a reply,
/// or an event line (`! …`). See ``FrameView`` for the form the hot path
/// reads in place.
enum Frame: Equatable {
    case reply(Reply)
    case event([UInt8])
}

/// A whole reply, copied: its data lines (each with its `* ` prefix; a
/// literal's bytes stand in for its `* {N}` line), then its final line.
/// Setup requests read these (``ReplyView/materialized()``).
struct Reply: Equatable {
    var dataLines: [[UInt8]] = []
    var finalLine: [UInt8] = []

    /// The reply laid out as a ``ReplyView`` over one buffer (for checking a
    /// reply built in memory, as tests do).
    func withView<Result>(_ body: (ReplyView) throws -> Result) rethrows -> Result {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for line in dataLines {
            ranges.append(bytes.count..<bytes.count + line.count)
            bytes += line
        }
        let final = bytes.count..<bytes.count + finalLine.count
        bytes += finalLine
        return try bytes.withUnsafeBytes { try body(ReplyView(bytes: $0, dataLineRanges: ranges, finalLineRange: final)) }
    }
}

/// A reply read in place: ranges of the bytes it arrived in, no copies.
///
/// Valid only while the framer's callback runs: the bytes belong to the
/// read buffer and are reused by the next read.
struct ReplyView {
    /// The bytes of the frame, from its first data line to its final line.
    let bytes: UnsafeRawBufferPointer
    let dataLineRanges: [Range<Int>]
    let finalLineRange: Range<Int>

    var dataLineCount: Int { dataLineRanges.count }

    /// Data line `index` (with its `* ` prefix; a literal's bytes for a `* {N}` line).
    func dataLine(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[dataLineRanges[index]])
    }

    /// The final line (`OK …`, `ERR …`; in single-line framing, the one line).
    var finalLine: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[finalLineRange]) }

    /// A copy that outlives the read buffer.
    func materialized() -> Reply {
        Reply(dataLines: dataLineRanges.map { Array(bytes[$0]) }, finalLine: Array(finalLine))
    }
}

/// A frame read in place; valid only while the framer's callback runs.
enum FrameView {
    case reply(ReplyView)
    case event(UnsafeRawBufferPointer)

    /// A copy that outlives the read buffer.
    func materialized() -> Frame {
        switch self {
        case .reply(let reply): return .reply(reply.materialized())
        case .event(let line): return .event(Array(line))
        }
    }
}

/// Reassembles replies from a byte stream, incrementally, without copying
/// what it can read in place.
///
/// In `.lectern` framing (PROTOCOL.md, "Replies" and "Events") a reply is
/// data lines (`* …`; `* {N}` announces N raw bytes and a CRLF) up to one
/// final line (`[@tag] OK …` or `[@tag] ERR …`), and `! …` lines are events
/// between replies. In `.singleLine` framing (the raw scenario, for other
/// line protocols such as Redis's inline commands) every line is a reply,
/// except that a Redis bulk string (`$N`, then N bytes and CRLF) is one
/// reply whose final line is the `$N` header and whose one data line is
/// the N bytes (so `GET` of a value measures as `PING` does).
///
/// `.resp` framing (the pubsub scenario) reads RESP2 as `.singleLine` does,
/// and arrays too: `*N` and its N elements (bulk strings, one-line values,
/// nested arrays) are one reply whose final line is the `*N` header and
/// whose data lines are the leaf values in order (a bulk string's bytes,
/// or a one-line value such as `:1` or `$-1` as it stands; nested headers
/// are not kept). RESP2 tells a pushed pub/sub message from a reply only by
/// its content, so an array of three bulk strings whose first is `message`
/// (`*3 $7 message $N channel $N payload`), or of four whose first is
/// `pmessage`, is an event, handed out as its payload's bytes.
///
/// A line ends at LF; one CR directly before it is dropped (as
/// `LineDecoder` does on the server side).
///
/// Feed it each read with ``frames(in:_:)``: complete frames are handed to
/// the callback as views of the bytes where they lie (the socket's read
/// buffer, usually), and only the bytes of an incomplete frame at the end
/// of a read are copied, to be completed by the next one. The framer
/// remembers how far it has scanned, so a long reply that arrives in many
/// reads is scanned once.
///
/// A line that fits neither framing is a protocol violation: ``frames(in:_:)``
/// throws and the stream should be dropped.
///
/// ```swift
/// try framer.frames(in: bytesJustRead) { frame in handle(frame); return true }
/// ```
///
/// - Complexity: amortised O(n) in the bytes fed; LF is found with `memchr`.
struct ReplyFramer {
    enum Framing { case lectern, singleLine, resp }

    struct UnexpectedLine: Error, CustomStringConvertible {
        let line: String
        var description: String { "unexpected line from the server: \(line.prefix(120))" }
    }

    /// Thrown when a line grows past the maximum length before its LF.
    struct LineTooLong: Error, CustomStringConvertible {
        let limit: Int
        var description: String { "a line longer than \(limit) bytes from the server" }
    }

    let framing: Framing
    /// The longest line accepted, in bytes, not counting the line ending.
    let maximumLineLength: Int

    /// Bytes of an incomplete frame, kept from the last read.
    private var carried: [UInt8] = []
    // The frame being assembled; offsets count from its first byte.
    /// Start of the line being read.
    private var lineStart = 0
    /// Bytes from `lineStart` up to here are known not to be LF.
    private var scanned = 0
    private var dataLines: [Range<Int>] = []
    private var literalLength: Int?
    private var expectsLiteralEnd = false
    /// In single-line framing, the `$N` line of the bulk string being read.
    private var bulkHeader: Range<Int>?
    /// In RESP framing, the `*N` line of the array being read, N, and the
    /// elements still to read at any depth (a nested `*M` takes the place
    /// of one element and adds M).
    private var arrayHeader: Range<Int>?
    private var arrayCount = 0
    private var elementsRemaining = 0
    /// Leaves of the array read so far that were bulk strings.
    private var bulkLeaves = 0
    /// The last frame was handed out: clear the state before the next.
    private var frameWasReturned = false

    init(framing: Framing, maximumLineLength: Int = 16 << 20) {
        self.framing = framing
        self.maximumLineLength = maximumLineLength
    }

    /// Bytes of an incomplete frame held over to the next read.
    var carriedByteCount: Int { carried.count }

    /// Reads the frames that `bytes` completes, in order, calling `body`
    /// with each (views into the bytes, valid during the call) until it
    /// returns false; keeps the rest for the next call. After `body` has
    /// returned false the stream should not be fed again.
    mutating func frames(in bytes: UnsafeRawBufferPointer, _ body: (FrameView) throws -> Bool) throws {
        if carried.isEmpty {
            let consumed = try read(bytes, body)
            if consumed < bytes.count { carried.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[consumed...])) }
        } else {
            var buffer = carried
            carried = []
            buffer.append(contentsOf: bytes)
            let consumed = try buffer.withUnsafeBytes { try read($0, body) }
            buffer.removeFirst(consumed)
            carried = buffer
        }
    }

    /// Hands out the complete frames at the start of `bytes`; returns how
    /// many bytes they took.
    private mutating func read(_ bytes: UnsafeRawBufferPointer, _ body: (FrameView) throws -> Bool) throws -> Int {
        var consumed = 0
        while let found = try next(in: UnsafeRawBufferPointer(rebasing: bytes[consumed...])) {
            consumed += found.length
            guard try body(found.frame) else { break }
        }
        return consumed
    }

    /// A frame and how many bytes it took.
    private struct FoundFrame {
        let frame: FrameView
        let length: Int
    }

    /// The frame at the start of `bytes`, or nil when more bytes are needed.
    private mutating func next(in bytes: UnsafeRawBufferPointer) throws -> FoundFrame? {
        if frameWasReturned {
            frameWasReturned = false
            lineStart = 0
            scanned = 0
            dataLines.removeAll(keepingCapacity: true)
            bulkHeader = nil
            arrayHeader = nil
        }
        guard let base = bytes.baseAddress else { return nil }
        while true {
            if let length = literalLength {
                guard bytes.count - lineStart >= length else { return nil }
                dataLines.append(lineStart..<lineStart + length)
                lineStart += length
                scanned = lineStart
                literalLength = nil
                expectsLiteralEnd = true
            }
            guard scanned < bytes.count,
                let found = memchr(base + scanned, 0x0A, bytes.count - scanned)
            else {
                scanned = bytes.count
                // One byte of slack: the last byte may be the CR of a CRLF.
                if bytes.count - lineStart > maximumLineLength + 1 { throw LineTooLong(limit: maximumLineLength) }
                return nil
            }
            let newline = base.distance(to: UnsafeRawPointer(found))
            var end = newline
            if end > lineStart && bytes[end - 1] == 0x0D { end -= 1 }
            guard end - lineStart <= maximumLineLength else { throw LineTooLong(limit: maximumLineLength) }
            let line = lineStart..<end
            lineStart = newline + 1
            scanned = lineStart
            if expectsLiteralEnd {
                expectsLiteralEnd = false
                guard line.isEmpty else { throw unexpected(bytes, line) }
                if arrayHeader != nil {
                    bulkLeaves += 1
                    if let frame = elementDidEnd(bytes) { return frame }
                    continue
                }
                if let header = bulkHeader {
                    return complete(ReplyView(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<lineStart]), dataLineRanges: dataLines, finalLineRange: header))
                }
                continue
            }
            let text = UnsafeRawBufferPointer(rebasing: bytes[line])
            if framing != .lectern {
                if let length = ReplyFramer.bulkLength(text) {
                    if arrayHeader == nil { bulkHeader = line }
                    literalLength = length
                    continue
                }
                if framing == .resp, let count = ReplyFramer.arrayLength(text) {
                    if arrayHeader == nil {
                        arrayHeader = line
                        arrayCount = count
                        bulkLeaves = 0
                        elementsRemaining = 1  // the header's own place, taken back below
                    }
                    elementsRemaining += count
                    if let frame = elementDidEnd(bytes) { return frame }
                    continue
                }
                if arrayHeader != nil {
                    dataLines.append(line)
                    if let frame = elementDidEnd(bytes) { return frame }
                    continue
                }
                return complete(ReplyView(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<lineStart]), dataLineRanges: [], finalLineRange: line))
            }
            switch ReplyFramer.kind(of: text) {
            case .data:
                if let length = ReplyFramer.literalLength(text) {
                    literalLength = length
                } else {
                    dataLines.append(line)
                }
            case .event:
                guard dataLines.isEmpty else { throw unexpected(bytes, line) }
                frameWasReturned = true
                return FoundFrame(frame: .event(text), length: lineStart)
            case .final:
                return complete(ReplyView(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<lineStart]), dataLineRanges: dataLines, finalLineRange: line))
            case .other:
                throw unexpected(bytes, line)
            }
        }
    }

    /// One element of the array being read is complete: the whole array
    /// if it was the last, as a reply or (a pub/sub message) an event.
    private mutating func elementDidEnd(_ bytes: UnsafeRawBufferPointer) -> FoundFrame? {
        elementsRemaining -= 1
        guard elementsRemaining == 0, let header = arrayHeader else { return nil }
        let frame = UnsafeRawBufferPointer(rebasing: bytes[..<lineStart])
        if let payload = pushedPayload(frame) {
            frameWasReturned = true
            return FoundFrame(frame: .event(UnsafeRawBufferPointer(rebasing: frame[payload])), length: lineStart)
        }
        return complete(ReplyView(bytes: frame, dataLineRanges: dataLines, finalLineRange: header))
    }

    /// The payload of a pushed `message` (3 bulk strings) or `pmessage`
    /// (4), when the array just read is one.
    private func pushedPayload(_ frame: UnsafeRawBufferPointer) -> Range<Int>? {
        guard bulkLeaves == arrayCount, dataLines.count == arrayCount, let kind = dataLines.first, let payload = dataLines.last else { return nil }
        let first = UnsafeRawBufferPointer(rebasing: frame[kind])
        switch arrayCount {
        case 3 where first.elementsEqual("message".utf8): return payload
        case 4 where first.elementsEqual("pmessage".utf8): return payload
        default: return nil
        }
    }

    private mutating func complete(_ reply: ReplyView) -> FoundFrame {
        frameWasReturned = true
        return FoundFrame(frame: .reply(reply), length: lineStart)
    }

    private func unexpected(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>) -> UnexpectedLine {
        UnexpectedLine(line: String(decoding: bytes[line], as: UTF8.self))
    }

    enum LineKind { case data, event, final, other }

    static func kind(of line: UnsafeRawBufferPointer) -> LineKind {
        if line.count >= 2 && line[1] == UInt8(ascii: " ") {
            if line[0] == UInt8(ascii: "*") { return .data }
            if line[0] == UInt8(ascii: "!") { return .event }
        }
        return statusWord(line) == nil ? .other : .final
    }

    enum StatusWord: Equatable { case ok, err }

    /// `OK` or `ERR` when the line (after an optional `@tag`) is a final line.
    static func statusWord(_ line: UnsafeRawBufferPointer) -> StatusWord? {
        let rest = line.first == UInt8(ascii: "@") ? afterTag(line) : line
        if startsWithWord(rest, "OK") { return .ok }
        if startsWithWord(rest, "ERR") { return .err }
        return nil
    }

    /// The line after its `@tag ` (empty when the tag is all there is).
    static func afterTag(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return UnsafeRawBufferPointer(rebasing: line[line.count...]) }
        return UnsafeRawBufferPointer(rebasing: line[(space + 1)...])
    }

    /// Whether `line` is `word`, or starts with `word` and a space.
    static func startsWithWord(_ line: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard line.count >= length, line.count == length || line[length] == UInt8(ascii: " "), let base = line.baseAddress else { return false }
        return memcmp(base, word.utf8Start, length) == 0
    }

    /// N for a Redis bulk string's `$N` line (N ≥ 0; `$-1`, the null bulk
    /// string, is a whole reply by itself).
    static func bulkLength(_ line: UnsafeRawBufferPointer) -> Int? {
        guard line.first == UInt8(ascii: "$") else { return nil }
        return wholeNumber(line[1...])
    }

    /// N for a RESP array's `*N` line (N ≥ 0; `*-1`, the null array, is a
    /// one-line value).
    static func arrayLength(_ line: UnsafeRawBufferPointer) -> Int? {
        guard line.first == UInt8(ascii: "*") else { return nil }
        return wholeNumber(line[1...])
    }

    /// N for a `* {N}` line.
    private static func literalLength(_ line: UnsafeRawBufferPointer) -> Int? {
        guard line.count > 4, line[line.count - 1] == UInt8(ascii: "}"), line[2] == UInt8(ascii: "{") else { return nil }
        return wholeNumber(line[3..<(line.count - 1)])
    }

    /// The value of 1 to 12 ASCII digits, or nil for anything else.
    private static func wholeNumber(_ digits: Slice<UnsafeRawBufferPointer>) -> Int? {
        guard digits.count <= 12 else { return nil }
        return WireNumber.wholeNumber(digits)
    }
}
