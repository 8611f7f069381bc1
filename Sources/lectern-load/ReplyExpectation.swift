// ReplyExpectation.swift: what a well-formed reply to a request looks like.

import Glibc

/// The shape a reply must have: the number and prefixes of its data lines
/// and the prefix of its final line. Checking compares bytes in place
/// (`memcmp` against prefixes kept in one buffer), so it costs little more
/// than reading the reply; nothing is allocated unless the reply is wrong.
///
/// A class, so that every request waiting for its reply shares one.
final class ReplyExpectation {
    /// Every prefix's bytes, back to back.
    private let prefixBytes: [UInt8]
    /// Prefixes of the data lines, in order (ranges of ``prefixBytes``); nil accepts any data lines.
    private let dataPrefixes: [Range<Int>]?
    /// Prefixes a final line may have (`OK TAP hit`), or the one line in raw mode; empty accepts any.
    private let finalPrefixes: [Range<Int>]

    convenience init(data: [String]? = [], final: String...) {
        self.init(data: data, finalPrefixes: final)
    }

    init(data: [String]?, finalPrefixes: [String]) {
        var bytes: [UInt8] = []
        func add(_ prefix: String) -> Range<Int> {
            let start = bytes.count
            bytes += prefix.utf8
            return start..<bytes.count
        }
        dataPrefixes = data.map { $0.map(add) }
        self.finalPrefixes = finalPrefixes.map(add)
        prefixBytes = bytes
    }

    convenience init(anyDataFinal prefixes: [String]) {
        self.init(data: nil, finalPrefixes: prefixes)
    }

    /// The three data lines of a highlighted sentence (TAP, RECTS, SELECT).
    static let highlightLines = ["* sentence ", "* rects ", "* outline "]

    enum Outcome: Equatable {
        case wellFormed
        /// An `ERR <code>` reply (raw and RESP: a line starting with `-` or `ERR`).
        case errorReply(code: String)
        case malformed(String)
    }

    /// Whether `reply` is what was expected.
    func check(_ reply: Reply, framing: ReplyFramer.Framing) -> Outcome {
        reply.withView { check($0, framing: framing) }
    }

    /// Whether `reply` is what was expected, read in place.
    func check(_ reply: ReplyView, framing: ReplyFramer.Framing) -> Outcome {
        var final = reply.finalLine
        if framing == .lectern, final.first == UInt8(ascii: "@") {
            final = ReplyFramer.afterTag(final)
        }
        if Self.hasPrefix(final, "ERR ") || (framing != .lectern && final.first == UInt8(ascii: "-")) {
            return errorReply(final)
        }
        return prefixBytes.withUnsafeBytes { prefixes -> Outcome in
            guard finalPrefixes.isEmpty || finalPrefixes.contains(where: { Self.hasPrefix(final, prefixes[$0]) }) else {
                return .malformed("final line '\(String(decoding: reply.finalLine.prefix(120), as: UTF8.self))'")
            }
            if let dataPrefixes {
                guard dataPrefixes.count == reply.dataLineCount else {
                    return .malformed("\(reply.dataLineCount) data lines where \(dataPrefixes.count) were expected, before '\(String(decoding: reply.finalLine.prefix(80), as: UTF8.self))'")
                }
                for index in dataPrefixes.indices where !Self.hasPrefix(reply.dataLine(index), prefixes[dataPrefixes[index]]) {
                    return .malformed("data line '\(String(decoding: reply.dataLine(index).prefix(80), as: UTF8.self))'")
                }
            }
            return .wellFormed
        }
    }

    /// The error code of an error reply. Lectern: `ERR CODE sentence`;
    /// Redis: `-ERR sentence`, `-WRONGTYPE …`.
    private func errorReply(_ final: UnsafeRawBufferPointer) -> Outcome {
        let final = Array(final)
        let words = final.split(separator: UInt8(ascii: " "), maxSplits: 2)
        let code = final.first == UInt8(ascii: "-") ? words.first?.dropFirst() : words.dropFirst().first
        return .errorReply(code: String(decoding: code ?? [], as: UTF8.self))
    }

    private static func hasPrefix(_ line: UnsafeRawBufferPointer, _ prefix: Slice<UnsafeRawBufferPointer>) -> Bool {
        guard line.count >= prefix.count else { return false }
        guard let lineBase = line.baseAddress, let prefixBase = prefix.base.baseAddress else { return prefix.isEmpty }
        return memcmp(lineBase, prefixBase + prefix.startIndex, prefix.count) == 0
    }

    private static func hasPrefix(_ line: UnsafeRawBufferPointer, _ prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard line.count >= length, let base = line.baseAddress else { return length == 0 }
        return memcmp(base, prefix.utf8Start, length) == 0
    }
}
