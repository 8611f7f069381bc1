// RequestForms.swift: one request sent three ways (plain, tagged, RESP) to
// three identically prepared daemons, and their replies compared.

import Foundation
import LecternProtocol
@testable import LecternServer

/// One request as a client may send it: the request line (untagged) and,
/// for a literal or heredoc, the exact bytes that follow the line and the
/// payload they carry.
struct FormRequest {
    var line: [UInt8]
    /// The bytes after the line's LF (a literal's bytes and line end, or a
    /// heredoc's lines and terminator), sent as they are.
    var following: [UInt8] = []
    /// The payload those bytes carry (the RESP form's last element).
    var payload: [UInt8]?
    /// A request no RESP array says the same way (a payload token before
    /// the last, which RESP reads as text): sent to the RESP daemon as a line.
    var isLineOnly = false

    init(_ line: String) { self.line = Array(line.utf8) }
    init(line: [UInt8], following: [UInt8] = [], payload: [UInt8]? = nil, isLineOnly: Bool = false) {
        self.line = line
        self.following = following
        self.payload = payload
        self.isLineOnly = isLineOnly
    }

    var text: String { String(decoding: line, as: UTF8.self) }

    /// The daemon's command table, for which keys RESP reads as options.
    private static let commands = CommandTable(Server.allCommands)

    /// The RESP array's elements: the line split the way the protocol does
    /// (``RequestParser``), quotes removed and escapes resolved, `key=value`
    /// as one element, and the payload last. Nil when the line does not
    /// parse, or when RESP reads an argument otherwise: a quoted positional
    /// argument of the shape `key=value` whose key is one of the command's
    /// options (RESP reads it as that option), or a `key=value` whose key
    /// is not (RESP reads it as text, as a line reads it quoted).
    ///
    /// A payload's marker (`{N}`, `<<WORD`) is not an element: the payload
    /// is. A payload for a command that takes none has no RESP form (RESP
    /// has no payloads, only arguments, so its error is another one).
    var respElements: [[UInt8]]? {
        guard !isLineOnly else { return nil }
        // The daemon reads the line without the CR of its line end.
        let seen = line.last == 0x0D ? line.dropLast() : line[...]
        guard let request = try? RequestParser.parse(seen) else { return nil }
        var arguments = request.arguments
        if payload != nil {
            guard ["PUT"].contains(request.command.uppercased()), arguments.last?.quoted == false else { return nil }
            arguments.removeLast()
        } else if let last = arguments.last, !last.quoted, last.key == nil,
            (last.value.hasPrefix("{") && last.value.hasSuffix("}")) || last.value.hasPrefix("<<")
        {
            return nil  // a payload marker the daemon refuses (`{12x}`): no RESP array says that
        }
        let optionKeys = Set(Self.commands.command(named: request.command)?.options.map(\.key) ?? [])
        var elements = [Array(request.command.utf8)]
        for argument in arguments {
            if let key = argument.key {
                guard optionKeys.contains(key) else { return nil }
                elements.append(Array("\(key)=\(argument.value)".utf8))
            } else {
                if argument.quoted, let equals = argument.value.firstIndex(of: "="),
                    argument.value[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
                    equals != argument.value.startIndex, optionKeys.contains(String(argument.value[..<equals]))
                {
                    return nil
                }
                elements.append(Array(argument.value.utf8))
            }
        }
        if let payload { elements.append(payload) }
        return elements
    }
}

/// A reply read from a line-protocol connection, events left out.
struct LineReply: Equatable, CustomStringConvertible {
    /// Data lines: the text after `* `, or a literal's exact bytes.
    var data: [[UInt8]] = []
    /// The final line (`[@tag ]OK …` / `[@tag ]ERR …`).
    var final: String = ""

    var description: String {
        (data.map { "* " + String(decoding: $0, as: UTF8.self) } + [final]).joined(separator: "\n")
    }
}

/// A RESP value as a Redis client reads it (RESP2 and the RESP3 types the
/// daemon sends).
indirect enum RESPReply: Equatable, CustomStringConvertible {
    case simple(String)
    case error(String)
    case integer(Int)
    case bulk([UInt8]?)
    case array([RESPReply]?)
    case map([RESPReply])
    case push([RESPReply])
    case other(String)

    var description: String {
        switch self {
        case .simple(let s): return "+\(s)"
        case .error(let s): return "-\(s)"
        case .integer(let n): return ":\(n)"
        case .bulk(let b): return b.map { "$\"\(String(decoding: $0, as: UTF8.self))\"" } ?? "$nil"
        case .array(let a): return a.map { "[" + $0.map(\.description).joined(separator: ", ") + "]" } ?? "*nil"
        case .map(let a): return "%{" + a.map(\.description).joined(separator: ", ") + "}"
        case .push(let a): return ">[" + a.map(\.description).joined(separator: ", ") + "]"
        case .other(let s): return s
        }
    }

    /// Whether this is an event (a pub/sub `message` array or a push).
    var isEvent: Bool {
        switch self {
        case .push: return true
        case .array(let elements?):
            return elements.count == 3 && elements.first == .bulk(Array("message".utf8))
        default: return false
        }
    }

    /// The RESP reply PROTOCOL.md's "Redis clients (RESP)" table gives for
    /// a plain reply (untagged): data lines as bulk strings then the status
    /// as a simple string, a bare status as a simple string, `ERR` as an error.
    init(expectedFor reply: LineReply) {
        if reply.final.hasPrefix("ERR ") {
            self = .error(String(reply.final.dropFirst(4)))
            return
        }
        var status = reply.final == "OK" ? "" : String(reply.final.dropFirst(3))
        if status.isEmpty { status = "OK" }
        if reply.data.isEmpty {
            self = .simple(status)
        } else {
            self = .array(reply.data.map { .bulk($0) } + [.simple(status)])
        }
    }
}

extension LineClient {
    /// The next reply, skipping event lines (`! …`) before it; nil if the
    /// daemon closed the connection before a final line.
    func readLineReply() throws -> LineReply? {
        var reply = LineReply()
        while let line = try readLine() {
            if line.hasPrefix("! ") { continue }
            if line.hasPrefix("* ") {
                let rest = line.dropFirst(2)
                if rest.hasPrefix("{"), rest.hasSuffix("}"), let count = Int(rest.dropFirst().dropLast()) {
                    reply.data.append(try readBytes(count: count))
                    _ = try readLine()  // the CRLF after the bytes
                } else {
                    reply.data.append(Array(rest.utf8))
                }
                continue
            }
            reply.final = line
            return reply
        }
        return nil
    }

    /// The next RESP value that is not an event; nil at end of stream.
    func readRESPReply() throws -> RESPReply? {
        while let value = try readRESPValue() {
            if !value.isEvent { return value }
        }
        return nil
    }

    private func readRESPValue() throws -> RESPReply? {
        guard let line = try readLine() else { return nil }
        guard let type = line.first else { return .other(line) }
        let rest = String(line.dropFirst())
        func elements(_ count: Int) throws -> [RESPReply] {
            var values: [RESPReply] = []
            for _ in 0..<count {
                guard let value = try readRESPValue() else { throw Failure(description: "stream ended inside a RESP aggregate") }
                values.append(value)
            }
            return values
        }
        switch type {
        case "+": return .simple(rest)
        case "-": return .error(rest)
        case ":": return .integer(Int(rest) ?? Int.min)
        case "$":
            guard let count = Int(rest), count >= 0 else { return .bulk(nil) }
            let bytes = try readBytes(count: count)
            _ = try readBytes(count: 2)
            return .bulk(bytes)
        case "*":
            guard let count = Int(rest), count >= 0 else { return .array(nil) }
            return .array(try elements(count))
        case "%": return .map(try elements(2 * (Int(rest) ?? 0)))
        case ">": return .push(try elements(Int(rest) ?? 0))
        default: return .other(line)
        }
    }

    /// Sends a RESP array of bulk strings.
    @discardableResult
    func sendRESP(_ elements: [[UInt8]]) -> Bool {
        var bytes = Array("*\(elements.count)\r\n".utf8)
        for element in elements {
            bytes += Array("$\(element.count)\r\n".utf8) + element + [0x0D, 0x0A]
        }
        return send(bytes: bytes)
    }
}

/// Four daemons started alike, and one connection to each, which receive
/// the same requests in the same order: untagged lines, tagged lines, RESP
/// arrays, and untagged lines padded with trailing spaces past
/// `PlainRequestLine.maximumLength` (so that they are parsed into a
/// `Request` and never reach a command's cheap plain-line argument reader). Their state stays
/// the same while the requests mean the same, so even requests that
/// change state can be compared.
final class RequestFormTrio {
    let daemons: [Daemon]
    private(set) var plain: LineClient
    private(set) var tagged: LineClient
    private(set) var resp: LineClient
    private(set) var parsed: LineClient
    /// Trailing blanks that take a line past the plain-line limit (4,096).
    static let padding = [UInt8](repeating: 0x20, count: 4200)
    private var tagNumber = 0

    /// One difference between the forms.
    struct Difference: CustomStringConvertible {
        let request: String
        let what: String
        var description: String { "\(request): \(what)" }
    }
    private(set) var differences: [Difference] = []
    /// Requests compared in all three forms, and in the two line forms only.
    private(set) var comparedInThreeForms = 0
    private(set) var comparedInLineForms = 0

    init(_ arguments: [String] = []) throws {
        daemons = try (0..<4).map { _ in try Daemon(arguments) }
        plain = try daemons[0].connect()
        tagged = try daemons[1].connect()
        resp = try daemons[2].connect()
        parsed = try daemons[3].connect()
    }

    /// Every daemon's `commands_processed` figure, asked on a fresh
    /// connection (which counts the STATS itself too).
    func commandsProcessed() throws -> [String] {
        try daemons.map { daemon in
            let client = try daemon.connect()
            client.sendLine("STATS")
            let reply = try client.readLineReply()
            return reply?.data.map { String(decoding: $0, as: UTF8.self) }.first { $0.hasPrefix("commands_processed ") } ?? "none"
        }
    }

    /// Fresh connections to all three (the old ones are closed).
    func reconnect() throws {
        plain = try daemons[0].connect()
        tagged = try daemons[1].connect()
        resp = try daemons[2].connect()
        parsed = try daemons[3].connect()
    }

    /// Sends `request` untagged to all three, unchecked: setup.
    func prepare(_ request: FormRequest) throws {
        for client in [plain, tagged, resp, parsed] {
            client.send(bytes: request.line + [0x0A] + request.following)
            _ = try client.readLineReply()
        }
    }

    /// Sends `request` untagged to all four daemons from another connection
    /// (a second reader), unchecked: a change the compared connections
    /// did not make themselves.
    func prepareFromAnotherReader(_ request: FormRequest) throws {
        for daemon in daemons {
            let client = try daemon.connect()
            client.send(bytes: request.line + [0x0A] + request.following)
            _ = try client.readLineReply()
        }
    }

    /// Sends `request` in its three forms and records any difference.
    /// `compareRESP`: false for replies whose RESP form is not the line
    /// reply mapped (HELLO and STATS answer Redis clients with a map).
    /// Returns false when the connections were closed (by the request).
    @discardableResult
    func check(_ request: FormRequest, compareRESP: Bool = true) throws -> Bool {
        tagNumber += 1
        let tag = "@t\(tagNumber)"
        plain.send(bytes: request.line + [0x0A] + request.following)
        tagged.send(bytes: Array("\(tag) ".utf8) + request.line + [0x0A] + request.following)
        let elements = request.respElements
        if let elements { resp.sendRESP(elements) } else { resp.send(bytes: request.line + [0x0A] + request.following) }

        // A line ending in a CR keeps it last (the daemon strips one CR).
        let padded = request.line.last == 0x0D ? request.line.dropLast() + Self.padding + [0x0D] : request.line + Self.padding
        parsed.send(bytes: padded + [0x0A] + request.following)

        let plainReply = try plain.readLineReply()
        let taggedReply = try tagged.readLineReply()
        let parsedReply = try parsed.readLineReply()
        let name = request.text
        func note(_ what: String) { differences.append(Difference(request: name, what: what)) }

        // Byte for byte: the plain path (a typed command's cheap reader when it
        // takes the line) and the parsed path give the same reply.
        if parsedReply != plainReply {
            note("parsed-path reply\n\(parsedReply.map(\.description) ?? "closed")\nis not the plain reply\n\(plainReply.map(\.description) ?? "closed")")
        }

        switch (plainReply, taggedReply) {
        case (nil, nil): break
        case (let p?, let t?):
            var expected = p
            // An error that is not the answer to a request carries no tag.
            let untaggedError = ["ERR TOOLONG", "ERR BINARY", "ERR NOAUTH"].contains { p.final.hasPrefix($0) }
            if !(untaggedError && t.final == p.final) { expected.final = "\(tag) \(p.final)" }
            // SYNTAX and UTF8 errors name a column or byte of the line as
            // sent, tag included: shifted by the tag and its space.
            if t != expected, p.final.hasPrefix("ERR SYNTAX") || p.final.hasPrefix("ERR UTF8"),
                let range = p.final.range(of: #"(column|byte) \d+"#, options: .regularExpression),
                let space = p.final[range].firstIndex(of: " "), let position = Int(p.final[range][space...].dropFirst())
            {
                let word = p.final[range][..<space]
                expected.final = "\(tag) " + p.final.replacingCharacters(in: range, with: "\(word) \(position + tag.count + 1)")
            }
            if t != expected { note("tagged reply\n\(t)\nis not the plain reply with the tag\n\(expected)") }
        case (let p, let t):
            note("one line form closed: plain \(p.map(\.description) ?? "closed"), tagged \(t.map(\.description) ?? "closed")")
        }
        comparedInLineForms += 1

        if let elements {
            let respReply = try resp.readRESPReply()
            if compareRESP, elements.allSatisfy({ String(validating: $0, as: UTF8.self) != nil }) {
                comparedInThreeForms += 1
                switch (plainReply, respReply) {
                case (nil, nil): break
                case (let p?, let r?):
                    let expected = RESPReply(expectedFor: p)
                    if r != expected { note("RESP reply \(r) is not the plain reply mapped, \(expected)") }
                case (let p, let r):
                    note("one of plain/RESP closed: plain \(p.map(\.description) ?? "closed"), RESP \(r.map(\.description) ?? "closed")")
                }
            }
        } else {
            _ = try resp.readLineReply()
        }
        // A reply that closes the connection says so ("…; closing").
        return plainReply.map { !$0.final.hasSuffix("closing") } ?? false
    }
}
