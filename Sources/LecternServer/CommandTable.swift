// CommandTable.swift: the one table every command is declared in.

import LecternProtocol

/// What a handler of positional strings gets: the request and the
/// connection it came on.
struct CommandContext {
    let request: Request
    let connection: Connection
    let server: Server
    /// The request's positional arguments, already checked against the arity.
    let arguments: [String]
}

/// A request as the decoder gave it, at the gate.
enum RequestInput {
    /// A line of bare words (or a RESP array of them), split in place: its
    /// bytes are the decoder's buffer, read only while it is dispatched.
    case plain(PlainRequestLine)
    /// A request parsed into Strings (quotes, escapes, a payload, a long
    /// line, or a deferred request run again).
    case parsed(Request)

    /// The tag to echo on the reply, if any.
    var tag: String? {
        switch self {
        case .plain(let line): return line.tagString
        case .parsed(let request): return request.tag
        }
    }

    /// The request parsed: as it is, or made now from the line's bytes
    /// (exactly what ``RequestParser`` or ``RESP/request(from:)`` makes of
    /// them, see ``PlainRequestLine/request()``).
    func parsed() -> Request {
        switch self {
        case .plain(let line): return line.request()
        case .parsed(let request): return request
        }
    }

    /// How many positional (not `key=value`) arguments it has, without making them.
    var positionalCount: Int {
        switch self {
        case .plain(let line): return line.positionalCount
        case .parsed(let request):
            var count = 0
            for argument in request.arguments where argument.key == nil { count += 1 }
            return count
        }
    }

    /// Whether a literal or heredoc payload came with it (a plain line never has one).
    var hasPayload: Bool {
        switch self {
        case .plain: return false
        case .parsed(let request): return request.payload != nil
        }
    }
}

/// A request past the gate's checks (command found, authentication and
/// arity checked): what a typed handler gets besides its arguments.
struct Invocation {
    let input: RequestInput
    let connection: Connection
    let server: Server

    var tag: String? { input.tag }

    /// The context a handler of positional strings gets. For a plain line
    /// the request is parsed from its bytes now: a handler that defers its
    /// reply (``LayoutService/layoutOrDefer(_:spec:context:)``) takes this,
    /// since the line's bytes do not outlive the dispatch.
    func context() -> CommandContext {
        let request = input.parsed()
        return CommandContext(request: request, connection: connection, server: server, arguments: request.positional)
    }
}

/// A command whose handler takes its arguments as typed values (TAP's
/// document id and point, PING's message). The gate reads them once it has
/// checked the arity: from a plain line's bytes by ``arguments(plain:)``
/// when that cheap reader takes them, else from the parsed request by
/// ``arguments(_:)``; either way the one ``handle(_:_:)`` runs.
///
/// A type, not a closure, so that the table calls it through a witness
/// table, with no closure context to retain per request.
protocol TypedCommand {
    associatedtype Arguments
    /// The arguments read straight from a plain line's bytes, without
    /// making Strings where it can; nil declines (a number spelled in a way
    /// it does not read, a value to reject), and ``arguments(_:)`` then
    /// reads the line parsed, giving the same values or the error. Must
    /// never accept what ``arguments(_:)`` would read otherwise.
    static func arguments(plain line: PlainRequestLine) -> Arguments?
    /// The arguments of a parsed request, or the error (`ERR NUMBER`, `ERR ARGS`…).
    static func arguments(_ request: Request) throws -> Arguments
    /// Runs the command.
    static func handle(_ arguments: Arguments, _ invocation: Invocation) throws -> CommandOutcome
    /// Reads the arguments and runs ``handle(_:_:)``; the default
    /// implementation is the only one.
    static func perform(_ invocation: Invocation) throws -> CommandOutcome
}

extension TypedCommand {
    static func perform(_ invocation: Invocation) throws -> CommandOutcome {
        switch invocation.input {
        case .plain(let line):
            if let arguments = arguments(plain: line) { return try handle(arguments, invocation) }
            // Declined: the line parsed, and kept for a reply that waits.
            let request = line.request()
            let parsed = Invocation(input: .parsed(request), connection: invocation.connection, server: invocation.server)
            return try handle(arguments(request), parsed)
        case .parsed(let request):
            return try handle(arguments(request), invocation)
        }
    }
}

/// One command: name, arity, syntax, summary and handler, in one place.
///
/// Dispatch, argument-count errors, `HELP`, `HELP name` and the check that
/// protocol/PROTOCOL.md documents every command are all driven by this, as
/// Redis drives everything from its command table.
///
/// Every request, whatever its framing (plain line, tagged line, RESP2/3),
/// passes one gate (``Server/dispatch(_:on:counted:)``): the command looked
/// up (``CommandTable/index(for:)``, `UNKNOWN`) → ``admit(_:isAuthenticated:)``:
/// `NOAUTH` unless the connection has authenticated or the command is
/// ``allowedBeforeAuth``, then the payload and the positional count checked
/// against the arity (`ARGS`) → the arguments read → the handler
/// (``perform(_:)``) → the reply; STATS counts the request there, once. A handler
/// of positional strings gets them as a ``CommandContext``; a
/// ``TypedCommand`` gets typed arguments, read from a plain line's bytes
/// when its cheap reader takes them and from the parsed request otherwise:
/// a faster path is only a cheaper argument reader in front of the same
/// handler, never a second gate.
struct Command {
    /// Upper-case name; requests match it case-insensitively.
    let name: String
    /// Syntax of the arguments for HELP and error messages: `[message]`.
    let syntax: String
    let minimumArguments: Int
    /// `nil`: no upper bound.
    let maximumArguments: Int?
    /// One line for `HELP`.
    let summary: String
    /// Extra lines for `HELP name`.
    let details: [String]
    /// Whether the command takes a literal or heredoc payload.
    var acceptsPayload = false
    /// Whether the command may run before AUTH (when a token is configured).
    var allowedBeforeAuth = false
    let handler: Handler

    /// How the handler takes its arguments.
    enum Handler {
        /// As positional Strings of the parsed request (the gate parses a plain line first).
        case positional((CommandContext) throws -> CommandOutcome)
        /// As typed values (see ``TypedCommand``).
        case typed(any TypedCommand.Type)
    }

    /// A command whose handler takes the request's positional Strings.
    init(
        name: String, syntax: String, minimumArguments: Int, maximumArguments: Int?, summary: String, details: [String],
        acceptsPayload: Bool = false, allowedBeforeAuth: Bool = false,
        handler: @escaping (CommandContext) throws -> CommandOutcome
    ) {
        self.init(
            name: name, syntax: syntax, minimumArguments: minimumArguments, maximumArguments: maximumArguments,
            summary: summary, details: details, acceptsPayload: acceptsPayload, allowedBeforeAuth: allowedBeforeAuth,
            handler: .positional(handler))
    }

    /// A command whose handler takes typed arguments.
    init(
        name: String, syntax: String, minimumArguments: Int, maximumArguments: Int?, summary: String, details: [String],
        acceptsPayload: Bool = false, allowedBeforeAuth: Bool = false, typed command: any TypedCommand.Type
    ) {
        self.init(
            name: name, syntax: syntax, minimumArguments: minimumArguments, maximumArguments: maximumArguments,
            summary: summary, details: details, acceptsPayload: acceptsPayload, allowedBeforeAuth: allowedBeforeAuth,
            handler: .typed(command))
    }

    private init(
        name: String, syntax: String, minimumArguments: Int, maximumArguments: Int?, summary: String, details: [String],
        acceptsPayload: Bool, allowedBeforeAuth: Bool, handler: Handler
    ) {
        self.name = name
        self.syntax = syntax
        self.minimumArguments = minimumArguments
        self.maximumArguments = maximumArguments
        self.summary = summary
        self.details = details
        self.acceptsPayload = acceptsPayload
        self.allowedBeforeAuth = allowedBeforeAuth
        self.handler = handler
    }

    var usage: String { syntax.isEmpty ? name : "\(name) \(syntax)" }

    /// The gate's checks after the look-up, in this order: `NOAUTH` unless
    /// the connection has authenticated or the command is allowed before;
    /// then `ARGS` for a payload it does not take or a positional count
    /// outside its arity (counted from the line or the request, without
    /// making the arguments).
    func admit(_ input: RequestInput, isAuthenticated: Bool) throws {
        if !isAuthenticated && !allowedBeforeAuth {
            throw ProtocolError(.authenticationRequired, "authentication required: send AUTH <token> first (before it only HELLO, AUTH, PING, HELP and QUIT work)")
        }
        if input.hasPayload && !acceptsPayload {
            throw ProtocolError(.arguments, "\(name) takes no literal or heredoc payload; usage: \(usage)")
        }
        let count = input.positionalCount
        if count < minimumArguments {
            throw ProtocolError(.arguments, "\(name) needs \(Self.countPhrase(minimumArguments)); usage: \(usage)")
        }
        if let maximum = maximumArguments, count > maximum {
            throw ProtocolError(.arguments, "\(name) takes at most \(Self.countPhrase(maximum)); usage: \(usage)")
        }
    }

    private static func countPhrase(_ n: Int) -> String { n == 1 ? "1 argument" : "\(n) arguments" }

    /// Reads the arguments of `invocation` (admitted by the gate) and runs the handler.
    func perform(_ invocation: Invocation) throws -> CommandOutcome {
        switch handler {
        case .positional(let handler): return try handler(invocation.context())
        case .typed(let command): return try command.perform(invocation)
        }
    }
}

/// The command table: lookup by name, and the errors for names and arity.
struct CommandTable {
    private(set) var commands: [Command] = []
    private var byName: [String: Int] = [:]
    /// Each command's name as a ``PlainRequestLine/commandWord`` (0 for a
    /// name over 8 bytes, which no line's word equals), beside ``commands``:
    /// a plain line's command is found by comparing words.
    private var words: [UInt64] = []

    init(_ commands: [Command]) {
        for command in commands { register(command) }
    }

    mutating func register(_ command: Command) {
        precondition(byName[command.name] == nil, "command \(command.name) declared twice")
        byName[command.name] = commands.count
        commands.append(command)
        words.append(PlainRequestLine.commandWord(command.name.utf8) ?? 0)
    }

    func command(named name: String) -> Command? {
        index(named: name).map { commands[$0] }
    }

    private func index(named name: String) -> Int? {
        // Clients nearly always send the canonical upper case: try it as is first.
        byName[name] ?? byName[name.uppercased()]
    }

    /// The gate's look-up: the index in ``commands`` of the command
    /// `input` names (an index, so that the gate reads the entry in place).
    ///
    /// - Throws: `UNKNOWN`, suggesting the nearest name.
    func index(for input: RequestInput) throws -> Int {
        let index: Int?
        switch input {
        case .plain(let line):
            if let word = line.commandWord {
                index = words.firstIndex(of: word)
            } else {
                index = self.index(named: String(decoding: line.command, as: UTF8.self))
            }
        case .parsed(let request):
            index = self.index(named: request.command)
        }
        if let index { return index }
        let name: String
        switch input {
        case .plain(let line): name = String(decoding: line.command, as: UTF8.self)
        case .parsed(let request): name = request.command
        }
        var message = "unknown command '\(name)'"
        if let near = nearestName(to: name) { message += "; did you mean \(near)?" }
        message += " (HELP lists commands)"
        throw ProtocolError(.unknownCommand, message)
    }

    /// The known name closest to `name` by edit distance, if it is close
    /// enough to be a plausible typo (at most a third of its letters).
    func nearestName(to name: String) -> String? {
        let typed = Array(name.uppercased().unicodeScalars)
        let scored = commands.map { ($0.name, editDistance(typed, Array($0.name.unicodeScalars))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, typed.count / 3) ? best.0 : nil
    }

}

/// Optimal string alignment distance (Levenshtein plus adjacent
/// transpositions, since "PIGN" for "PING" is the commonest typo).
///
/// - Complexity: O(a·b) time, O(b) space.
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], previousPrevious[j - 2] + 1)
            }
        }
        (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count]
}
