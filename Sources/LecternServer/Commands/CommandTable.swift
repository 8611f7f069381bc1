// CommandTable.swift: the one table every command is declared in.

import LecternProtocol

/// What a command handler gets: the request and the connection it came on.
struct CommandContext {
    let request: Request
    let connection: Connection
    let server: Server
    /// The request's positional arguments, already checked against the arity.
    let arguments: [String]
}

/// One command: name, arity, syntax, summary and handler, in one place.
///
/// Dispatch, argument-count errors, `HELP`, `HELP name` and the check that
/// protocol/PROTOCOL.md documents every command are all driven by this, as
/// Redis drives everything from its command table.
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
    let handler: (CommandContext) throws -> CommandOutcome
    /// An optional second way in, for the hottest commands: answers a
    /// ``PlainRequestLine`` straight from its bytes, without a ``Request``.
    /// It returns false, having done nothing, for any line it does not
    /// fully handle (an error to report, a layout still to compute), and
    /// ``handler`` then runs on the parsed request, so both ways give the
    /// same reply. Runs only on authenticated connections.
    var plainHandler: PlainHandler?

    typealias PlainHandler = (Server, PlainRequestLine, Connection) -> Bool

    var usage: String { syntax.isEmpty ? name : "\(name) \(syntax)" }
}

/// The command table: lookup by name, and the errors for names and arity.
struct CommandTable {
    private(set) var commands: [Command] = []
    private var byName: [String: Int] = [:]
    /// The commands that have a ``Command/plainHandler``, by their names'
    /// ``PlainRequestLine/commandWord``.
    private var plainHandlers: [PlainEntry] = []

    /// A named struct, not a tuple: a closure in an array's tuple is kept
    /// behind a reabstraction thunk, whose context is retained and released
    /// on every call.
    private struct PlainEntry {
        let name: UInt64
        let handler: Command.PlainHandler
    }

    init(_ commands: [Command]) {
        for command in commands { register(command) }
    }

    mutating func register(_ command: Command) {
        precondition(byName[command.name] == nil, "command \(command.name) declared twice")
        byName[command.name] = commands.count
        commands.append(command)
        if let handler = command.plainHandler {
            guard let word = PlainRequestLine.commandWord(command.name.utf8) else {
                preconditionFailure("command \(command.name) has a plain handler but a name over 8 bytes")
            }
            plainHandlers.append(PlainEntry(name: word, handler: handler))
        }
    }

    /// The plain handler of the command `line` names, if it has one.
    func plainHandler(for line: PlainRequestLine) -> Command.PlainHandler? {
        guard let word = line.commandWord else { return nil }
        for entry in plainHandlers where entry.name == word { return entry.handler }
        return nil
    }

    func command(named name: String) -> Command? {
        // Clients nearly always send the canonical upper case: try it as is first.
        if let index = byName[name] { return commands[index] }
        return byName[name.uppercased()].map { commands[$0] }
    }

    /// Finds the command for `request` and checks its positional arity.
    ///
    /// - Throws: `UNKNOWN` (suggesting the nearest name) or `ARGS` (with usage).
    func resolve(_ request: Request) throws -> (Command, [String]) {
        guard let command = command(named: request.command) else {
            var message = "unknown command '\(request.command)'"
            if let near = nearestName(to: request.command) { message += "; did you mean \(near)?" }
            message += " (HELP lists commands)"
            throw ProtocolError(.unknownCommand, message)
        }
        if request.payload != nil && !command.acceptsPayload {
            throw ProtocolError(.arguments, "\(command.name) takes no literal or heredoc payload; usage: \(command.usage)")
        }
        let arguments = request.positional
        if arguments.count < command.minimumArguments {
            throw ProtocolError(.arguments, "\(command.name) needs \(countPhrase(command.minimumArguments)); usage: \(command.usage)")
        }
        if let maximum = command.maximumArguments, arguments.count > maximum {
            throw ProtocolError(.arguments, "\(command.name) takes at most \(countPhrase(maximum)); usage: \(command.usage)")
        }
        return (command, arguments)
    }

    /// The known name closest to `name` by edit distance, if it is close
    /// enough to be a plausible typo (at most a third of its letters).
    func nearestName(to name: String) -> String? {
        let typed = Array(name.uppercased().unicodeScalars)
        let scored = commands.map { ($0.name, editDistance(typed, Array($0.name.unicodeScalars))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, typed.count / 3) ? best.0 : nil
    }

    private func countPhrase(_ n: Int) -> String { n == 1 ? "1 argument" : "\(n) arguments" }
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
