// ReplyExpectation.swift: what a well-formed reply to a request looks like.

/// The shape a reply must have: the number and prefixes of its data lines
/// and the prefix of its final line. Checking is byte prefix comparison, so
/// it costs little more than reading the reply.
struct ReplyExpectation {
    /// Prefixes of the data lines, in order; nil accepts any data lines.
    var dataPrefixes: [[UInt8]]?
    /// Prefix of the final line (`OK TAP hit`), or of the one line in raw mode.
    var finalPrefixes: [[UInt8]]

    init(data: [String]? = [], final: String...) {
        dataPrefixes = data.map { $0.map { Array($0.utf8) } }
        finalPrefixes = final.map { Array($0.utf8) }
    }

    init(data: [String]?, finalPrefixes: [String]) {
        dataPrefixes = data.map { $0.map { Array($0.utf8) } }
        self.finalPrefixes = finalPrefixes.map { Array($0.utf8) }
    }

    init(anyDataFinal prefixes: [String]) {
        dataPrefixes = nil
        finalPrefixes = prefixes.map { Array($0.utf8) }
    }

    /// The three data lines of a highlighted sentence (TAP, RECTS, SELECT).
    static let highlightLines = ["* sentence ", "* rects ", "* outline "]

    enum Outcome: Equatable {
        case wellFormed
        /// An `ERR <code>` reply (raw mode: a line starting with `-` or `ERR`).
        case errorReply(code: String)
        case malformed(String)
    }

    /// Whether `reply` is what was expected.
    func check(_ reply: Reply, framing: ReplyFramer.Framing) -> Outcome {
        var final = reply.finalLine[...]
        if framing == .lectern, final.first == UInt8(ascii: "@"), let space = final.firstIndex(of: UInt8(ascii: " ")) {
            final = final[(space + 1)...]
        }
        if final.starts(with: "ERR ".utf8) || (framing == .singleLine && final.first == UInt8(ascii: "-")) {
            let words = final.split(separator: UInt8(ascii: " "), maxSplits: 2)
            // Lectern: `ERR CODE sentence`; Redis: `-ERR sentence`, `-WRONGTYPE …`.
            let code = final.first == UInt8(ascii: "-") ? words.first?.dropFirst() : words.dropFirst().first
            return .errorReply(code: String(decoding: code ?? [], as: UTF8.self))
        }
        guard finalPrefixes.isEmpty || finalPrefixes.contains(where: { final.starts(with: $0) }) else {
            return .malformed("final line '\(String(decoding: reply.finalLine.prefix(120), as: UTF8.self))'")
        }
        if let dataPrefixes {
            guard dataPrefixes.count == reply.dataLines.count else {
                return .malformed("\(reply.dataLines.count) data lines where \(dataPrefixes.count) were expected, before '\(String(decoding: reply.finalLine.prefix(80), as: UTF8.self))'")
            }
            for (line, prefix) in zip(reply.dataLines, dataPrefixes) where !line.starts(with: prefix) {
                return .malformed("data line '\(String(decoding: line.prefix(80), as: UTF8.self))'")
            }
        }
        return .wellFormed
    }
}
