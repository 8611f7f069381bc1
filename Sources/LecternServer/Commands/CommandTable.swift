// CommandTable.swift: the one table every command is declared in.

import LecternProtocol
import LecternText

/// What a handler of positional strings gets: the request and the
/// connection it came on.
struct CommandContext {
    let request: Request
    let connection: Connection
    let server: Server
    /// The request's positional arguments, already checked against the arity.
    let arguments: [String]

    /// The offset unit of the connection (HELLO `units=`).
    var unit: OffsetUnit { connection.session.unit }
}

/// A request as the decoder gave it, at the gate: a ``PlainRequestLine``
/// (bare words, or a RESP array of them, split in place: its bytes are the
/// decoder's buffer, read only while it is dispatched) or a parsed
/// ``Request`` (quotes, escapes, a payload, a long line, or a deferred
/// request run again).
///
/// The gate is generic over the two, not an enum of them, so that a plain
/// line reaches its handler by reference, never copied.
protocol IncomingRequest {
    /// The command name packed by ``PlainRequestLine/commandWord``, when the
    /// request can give it without making a String.
    var commandWord: UInt64? { get }
    /// The command name as written.
    var commandName: String { get }
    /// How many positional (not `key=value`) arguments it has, without making them.
    var positionalCount: Int { get }
    /// How many `key=value` arguments it has, without making them.
    var keyedCount: Int { get }
    /// A line, or a RESP array (whose elements have no quoting).
    var framing: Request.Framing { get }
    /// Calls `body` with the key of each `key=value` argument, in order,
    /// as bytes (no String made for a plain line).
    func forEachOptionKey(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows
    /// Whether a literal or heredoc payload came with it.
    var hasPayload: Bool { get }
    /// The tag to echo on the reply, if any.
    var replyTag: String? { get }
    /// The request parsed: itself, or made now from the line's bytes
    /// (exactly what ``RequestParser`` or ``RESP/request(from:)`` makes of
    /// them, see ``PlainRequestLine/request()``).
    func parsed() -> Request
    /// Runs `command` on this request (``TypedCommand/perform(plain:on:server:)``
    /// or ``TypedCommand/perform(parsed:on:server:)``).
    func perform(_ command: any TypedCommand.Type, on connection: Connection, server: Server) throws -> CommandOutcome
}

extension IncomingRequest {
    /// What a handler of positional Strings gets. For a plain line the
    /// request is parsed from its bytes now: a typed handler that defers
    /// its reply (``LayoutService/layoutOrDefer(_:spec:context:)``) takes
    /// this, since the line's bytes do not outlive the dispatch.
    func context(on connection: Connection, server: Server) -> CommandContext {
        let request = parsed()
        return CommandContext(request: request, connection: connection, server: server, arguments: request.positional)
    }
}

extension PlainRequestLine: IncomingRequest {
    var commandName: String { String(decoding: command, as: UTF8.self) }
    var hasPayload: Bool { false }
    var replyTag: String? { tagString }
    func parsed() -> Request { request() }
    func forEachOptionKey(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows { try forEachKey(body) }

    func perform(_ command: any TypedCommand.Type, on connection: Connection, server: Server) throws -> CommandOutcome {
        try command.perform(plain: self, on: connection, server: server)
    }
}

extension Request: IncomingRequest {
    var commandWord: UInt64? { nil }
    var commandName: String { command }
    var positionalCount: Int {
        var count = 0
        for argument in arguments where argument.key == nil { count += 1 }
        return count
    }
    var keyedCount: Int { arguments.count - positionalCount }
    var hasPayload: Bool { payload != nil }
    var replyTag: String? { tag }
    func parsed() -> Request { self }

    func forEachOptionKey(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        for argument in arguments {
            guard var key = argument.key else { continue }
            try key.withUTF8 { try body($0) }
        }
    }

    func perform(_ command: any TypedCommand.Type, on connection: Connection, server: Server) throws -> CommandOutcome {
        try command.perform(parsed: self, on: connection, server: server)
    }
}

/// A command whose handler takes its arguments as typed values (TAP's
/// document id and point, PING's message). The gate reads them once it has
/// checked the arity: from a plain line's bytes by ``arguments(plain:)``
/// when that cheap reader takes them, else from the parsed request by
/// ``arguments(_:)``; either way the one ``handle(_:of:on:server:)`` runs.
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
    static func arguments(plain line: borrowing PlainRequestLine) -> Arguments?
    /// The arguments of a parsed request (its positional count within the
    /// arity), or the error (`ERR NUMBER`, `ERR ARGS`…).
    static func arguments(_ request: Request) throws -> Arguments
    /// Runs the command on its arguments; `request` is what they were read
    /// from (for its tag, or parsed for a reply that waits).
    static func handle<Incoming: IncomingRequest>(
        _ arguments: Arguments, of request: Incoming, on connection: Connection, server: Server
    ) throws -> CommandOutcome
    /// Reads a plain line's arguments and runs ``handle(_:of:on:server:)``;
    /// the default implementation is the only one.
    static func perform(plain line: PlainRequestLine, on connection: Connection, server: Server) throws -> CommandOutcome
    /// Reads a parsed request's arguments and runs ``handle(_:of:on:server:)``;
    /// the default implementation is the only one.
    static func perform(parsed request: Request, on connection: Connection, server: Server) throws -> CommandOutcome
}

extension TypedCommand {
    static func perform(plain line: PlainRequestLine, on connection: Connection, server: Server) throws -> CommandOutcome {
        guard let arguments = arguments(plain: line) else {
            // Declined: the line parsed (and that request kept, should the reply wait).
            return try perform(parsed: line.request(), on: connection, server: server)
        }
        return try handle(arguments, of: line, on: connection, server: server)
    }

    static func perform(parsed request: Request, on connection: Connection, server: Server) throws -> CommandOutcome {
        try handle(arguments(request), of: request, on: connection, server: server)
    }
}

/// One command: name, arity, syntax, options, summary and handler, in one place.
///
/// Dispatch, argument-count and option errors, `HELP`, `HELP name`,
/// PROTOCOL.md's options table (``CommandReference``) and the check that
/// protocol/PROTOCOL.md documents every command are all driven by this, as
/// Redis drives everything from its command table.
///
/// Every request, whatever its framing (plain line, tagged line, RESP2/3),
/// passes one gate (``Server/dispatch(_:on:counted:)``, generic over the
/// ``IncomingRequest``, a plain line or a parsed request): the command looked
/// up (``CommandTable/index(for:)``, `UNKNOWN`) → ``CommandTable/admit(_:to:isAuthenticated:)``:
/// `NOAUTH` unless the connection has authenticated or the command is
/// ``allowedBeforeAuth``, then the payload and the positional count checked
/// against the arity (`ARGS`), then the option keys against ``options``
/// (`ARGS`: unknown, repeated, missing) → the arguments read and the handler run
/// (``CommandTable/perform(_:_:on:server:)``) → the reply; STATS counts the request
/// there, once. A handler
/// of positional strings gets them as a ``CommandContext``; a
/// ``TypedCommand`` gets typed arguments, read from a plain line's bytes
/// when its cheap reader takes them and from the parsed request otherwise:
/// a faster path is only a cheaper argument reader in front of the same
/// handler, never a second gate.
struct Command {
    /// Upper-case name; requests match it case-insensitively.
    let name: String
    /// Syntax of the positional arguments (and the payload) for HELP and
    /// error messages: `<id> <x> <y>`, `[message]`. The arity is read from
    /// it (``Arity/init(syntax:)``). Options are not written here: they are
    /// declared in ``options``, and ``usage`` shows them.
    let syntax: String
    /// The `key=value` options it takes (see ``Option``), in the order
    /// ``usage`` shows them. The gate refuses any other key.
    let options: [OptionSpec]
    /// The command with its syntax and options, as HELP and `ERR ARGS`
    /// show it: `TAP <id> <x> <y> [slop=<pt>]`; a payload last
    /// (`PUT <id> [lang=<code>] [mode=reader|uax29] ("text" | {bytes} | <<WORD)`).
    let usage: String
    /// ``options``' keys as bytes, for the gate's look-up.
    private let optionKeys: [[UInt8]]
    let minimumArguments: Int
    /// `nil`: no upper bound.
    let maximumArguments: Int?
    /// One line for `HELP`.
    let summary: String
    /// Extra lines for `HELP name`.
    let details: [String]
    /// Whether the command takes a literal or heredoc payload.
    let acceptsPayload: Bool
    /// Whether the command may run before AUTH (when a token is configured).
    let allowedBeforeAuth: Bool
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
        name: String, syntax: String, options: [any OptionDeclaration] = [], summary: String, details: [String],
        acceptsPayload: Bool = false, allowedBeforeAuth: Bool = false,
        handler: @escaping (CommandContext) throws -> CommandOutcome
    ) {
        self.init(
            name: name, syntax: syntax, options: options.map(\.spec), summary: summary, details: details,
            acceptsPayload: acceptsPayload, allowedBeforeAuth: allowedBeforeAuth, handler: .positional(handler))
    }

    /// A command whose handler takes typed arguments.
    init(
        name: String, syntax: String, options: [any OptionDeclaration] = [], summary: String, details: [String],
        acceptsPayload: Bool = false, allowedBeforeAuth: Bool = false, typed command: any TypedCommand.Type
    ) {
        self.init(
            name: name, syntax: syntax, options: options.map(\.spec), summary: summary, details: details,
            acceptsPayload: acceptsPayload, allowedBeforeAuth: allowedBeforeAuth, handler: .typed(command))
    }

    private init(
        name: String, syntax: String, options: [OptionSpec], summary: String, details: [String],
        acceptsPayload: Bool, allowedBeforeAuth: Bool, handler: Handler
    ) {
        precondition(!syntax.split(separator: " ").contains { $0.contains("=") },
                     "\(name)'s syntax '\(syntax)' writes an option: declare it in options:")
        precondition(Set(options.map(\.key)).count == options.count, "\(name) declares an option twice")
        precondition(options.count <= 64, "\(name) declares more options than the gate's mask holds")
        for option in options {
            for key in option.alternatives {
                precondition(options.contains { $0.key == key }, "\(name)'s \(option.key)= names an alternative it does not declare: \(key)=")
            }
        }
        self.name = name
        self.syntax = syntax
        self.options = options
        self.optionKeys = options.map { Array($0.key.utf8) }
        self.usage = Self.usage(name: name, syntax: syntax, options: options, payloadLast: acceptsPayload)
        let arity = Arity(syntax: syntax)
        self.minimumArguments = arity.minimum
        self.maximumArguments = arity.maximum
        self.summary = summary
        self.details = details
        self.acceptsPayload = acceptsPayload
        self.allowedBeforeAuth = allowedBeforeAuth
        self.handler = handler
    }

    /// What `HELP <name>` sends: the usage, the summary, the details, then
    /// one line per option (``OptionSpec/helpLine``).
    var help: [String] { [usage, summary] + details + options.map { "  " + $0.helpLine } }

    /// Whether some option is required (the gate then checks options even
    /// of a request that gives none).
    var hasRequiredOptions: Bool { options.contains { $0.isRequired } }

    /// The usage line: the name, the positional syntax, the options, and
    /// for a command that takes a payload the syntax's last group (its
    /// text) after them, since the payload token must end the line.
    private static func usage(name: String, syntax: String, options: [OptionSpec], payloadLast: Bool) -> String {
        var positional = Substring(syntax)
        var payload: Substring = ""
        if payloadLast, syntax.hasSuffix(")") {
            var depth = 0
            var index = syntax.endIndex
            while index > syntax.startIndex {
                index = syntax.index(before: index)
                if syntax[index] == ")" { depth += 1 }
                if syntax[index] == "(" { depth -= 1 }
                if depth == 0 { break }
            }
            positional = syntax[..<index].drop { $0 == " " }
            while positional.last == " " { positional = positional.dropLast() }
            payload = syntax[index...]
        }
        return [Substring(name), positional, Substring(optionSynopsis(options)), payload].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `width=<pt> [size=<pt>] [interval=<ms>|cps=<n>]`: a required option
    /// bare, an optional one in brackets, alternatives joined by `|`.
    static func optionSynopsis(_ options: [OptionSpec]) -> String {
        var shown = Set<String>()
        var words: [String] = []
        for option in options where !shown.contains(option.key) {
            let group = [option] + options.filter { option.alternatives.contains($0.key) }
            for member in group { shown.insert(member.key) }
            let text = group.map(\.synopsis).joined(separator: "|")
            words.append(option.isRequired ? text : "[\(text)]")
        }
        return words.joined(separator: " ")
    }

    /// The index in ``options`` of the option whose key is `key`.
    private func optionIndex(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        optionKeys.firstIndex { $0.elementsEqual(key) }
    }

    /// `ARGS` unless `request`'s options are ones this command declares,
    /// each given once, at most one of a group of alternatives, and every
    /// required one (or an alternative of it) there.
    ///
    /// - Complexity: O(keys × options) byte comparisons (options are a
    ///   handful); the did-you-mean of an unknown key only for a key no
    ///   longer than the longest option's.
    fileprivate func checkOptions<Incoming: IncomingRequest>(of request: Incoming) throws {
        var given: UInt64 = 0
        try request.forEachOptionKey { key in
            guard let index = optionIndex(of: key) else { throw unknownOption(String(decoding: key, as: UTF8.self)) }
            let bit: UInt64 = 1 << UInt64(index)
            if given & bit != 0 {
                throw ProtocolError(.arguments, "\(name) got \(options[index].key)= twice; give each option once; usage: \(usage)")
            }
            given |= bit
        }
        for (index, option) in options.enumerated() {
            let isGiven = given & (1 << UInt64(index)) != 0
            let alternatives = option.alternatives.filter { key in
                options.firstIndex { $0.key == key }.map { given & (1 << UInt64($0)) != 0 } ?? false
            }
            if isGiven, let other = alternatives.first {
                throw ProtocolError(.arguments, "\(name) takes \(option.key)= or \(other)=, not both; usage: \(usage)")
            }
            if option.isRequired && !isGiven && alternatives.isEmpty {
                let needs = ([option.synopsis] + options.filter { option.alternatives.contains($0.key) }.map(\.synopsis)).joined(separator: " or ")
                throw ProtocolError(.arguments, "\(name) needs \(needs); usage: \(usage)")
            }
        }
    }

    /// Over RESP, `request` with every `key=value` element whose key this
    /// command does not take made positional text again (RESP has no
    /// quoting, so `PUT d "E=mc² changed it."` from a Redis client is the
    /// text, not an option `E`); nil when every key is one it takes.
    ///
    /// - Throws: the unknown-option error (with its did-you-mean) when the
    ///   elements made text are more than the command's arity allows: then
    ///   the element was meant as an option, as `VIEW d width=200 sze=30`.
    fileprivate func respElementsAsText<Incoming: IncomingRequest>(of request: Incoming) throws -> Request? {
        var unknown: String?
        request.forEachOptionKey { key in
            if unknown == nil, optionIndex(of: key) == nil { unknown = String(decoding: key, as: UTF8.self) }
        }
        guard let unknown else { return nil }
        var reread = request.parsed()
        for index in reread.arguments.indices {
            let argument = reread.arguments[index]
            guard let key = argument.key, !optionKeys.contains(where: { $0.elementsEqual(key.utf8) }) else { continue }
            reread.arguments[index] = Argument(value: key + "=" + argument.value, quoted: true)
        }
        if let maximum = maximumArguments, reread.positionalCount > maximum { throw unknownOption(unknown) }
        return reread
    }

    /// `ARGS` for a key this command does not take, suggesting the nearest it does.
    private func unknownOption(_ key: String) -> ProtocolError {
        let shown = key.count > 40 ? String(key.prefix(40)) + "…" : key
        guard !options.isEmpty else {
            return ProtocolError(.arguments, "unknown option '\(shown)' for \(name), which takes none (a text with '=' in it is written quoted); usage: \(usage)")
        }
        var message = "unknown option '\(shown)' for \(name)"
        let typed = Array(key.lowercased().unicodeScalars)
        if typed.count <= (options.map(\.key.count).max() ?? 0) + 2 {
            let scored = options.map { ($0.key, editDistance(typed, Array($0.key.unicodeScalars))) }
            if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, typed.count / 3) {
                message += "; did you mean \(best.0)=?"
            }
        }
        return ProtocolError(.arguments, message + " (\(name) takes \(options.map { $0.key + "=" }.joined(separator: ", ")))")
    }

    private static func countPhrase(_ n: Int) -> String { n == 1 ? "1 argument" : "\(n) arguments" }

    /// `ARGS` for a payload the command does not take.
    fileprivate var payloadError: ProtocolError {
        ProtocolError(.arguments, "\(name) takes no literal or heredoc payload; usage: \(usage)")
    }

    /// `ARGS` for `count` positional arguments, outside the arity.
    fileprivate func arityError(count: Int) -> ProtocolError {
        if count < minimumArguments {
            // A payload stands for the last argument (PUT's text): without
            // one, the argument itself is needed too.
            let needs = acceptsPayload
                ? "\(Self.countPhrase(minimumArguments + 1)), or \(Self.countPhrase(minimumArguments)) before a {bytes} literal or <<WORD heredoc"
                : Self.countPhrase(minimumArguments)
            return ProtocolError(.arguments, "\(name) needs \(needs); usage: \(usage)")
        }
        return ProtocolError(.arguments, "\(name) takes at most \(Self.countPhrase(maximumArguments ?? count)); usage: \(usage)")
    }
}

/// How many positional arguments a command's syntax takes, read from it:
/// a word (`<id>`, `AUTH`) is one; `[…]` is optional; `(a | b)` is one of
/// its alternatives; a word with `...` or `…` in it (`<text…>`) is any
/// number of them; a `key=value` option and a `{bytes}` or `<<WORD`
/// payload are none. So the syntax HELP shows is the arity the gate checks.
struct Arity: Equatable {
    var minimum: Int
    /// `nil`: no upper bound.
    var maximum: Int?

    init(minimum: Int, maximum: Int?) {
        self.minimum = minimum
        self.maximum = maximum
    }

    init(syntax: String) {
        var reader = Reader(scalars: Array(syntax.unicodeScalars))
        self = reader.alternatives()
        precondition(reader.index == reader.scalars.count, "unbalanced brackets in syntax '\(syntax)'")
    }

    /// This, then `next`.
    private func followed(by next: Arity) -> Arity {
        Arity(minimum: minimum + next.minimum, maximum: maximum.flatMap { a in next.maximum.map { a + $0 } })
    }

    /// This or `other`.
    private func or(_ other: Arity) -> Arity {
        Arity(minimum: Swift.min(minimum, other.minimum), maximum: maximum.flatMap { a in other.maximum.map { Swift.max(a, $0) } })
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        /// Sequences separated by a ` | ` (a `|` inside a word is part of it:
        /// `cps=<n>|interval=<ms>`), up to a closing bracket or the end.
        mutating func alternatives() -> Arity {
            var arity = sequence()
            while index < scalars.count, scalars[index] == "|" {
                index += 1
                arity = arity.or(sequence())
            }
            return arity
        }

        /// Words and groups one after another, up to a `|`, a closing bracket or the end.
        private mutating func sequence() -> Arity {
            var arity = Arity(minimum: 0, maximum: 0)
            while index < scalars.count {
                let scalar = scalars[index]
                switch scalar {
                case " ": index += 1
                case "|", "]", ")": return arity
                case "[", "(":
                    index += 1
                    var group = alternatives()
                    precondition(index < scalars.count && scalars[index] == (scalar == "[" ? "]" : ")"), "unbalanced brackets in syntax")
                    index += 1
                    if scalar == "[" { group.minimum = 0 }
                    arity = arity.followed(by: group)
                default:
                    arity = arity.followed(by: word())
                }
            }
            return arity
        }

        /// One word, up to a blank or a bracket.
        private mutating func word() -> Arity {
            let start = index
            while index < scalars.count, !" []()".unicodeScalars.contains(scalars[index]) { index += 1 }
            let word = String(String.UnicodeScalarView(scalars[start..<index]))
            if word.contains("=") || word.hasPrefix("{") || word.hasPrefix("<<") { return Arity(minimum: 0, maximum: 0) }
            if word.contains("...") || word.contains("…") { return Arity(minimum: 1, maximum: nil) }
            return Arity(minimum: 1, maximum: 1)
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
    /// ``words`` hashed (open addressing, linear probing): a slot holds the
    /// index + 1 of a command, 0 none. At most a quarter full, so that a
    /// look-up nearly always reads one slot and one word.
    private var wordSlots: [Int] = [0]
    /// How far a word's product with the hash constant is shifted right to
    /// give its first slot (64 − log2 of the slot count).
    private var slotShift: UInt64 = 64
    /// What the gate reads of each command for every request, beside
    /// ``commands``: plain values, so that reading one counts no reference
    /// (a ``Command`` holds Strings, an array and maybe a closure).
    private var gates: [Gate] = []

    private struct Gate {
        let minimumArguments: Int
        /// `Int.max`: no upper bound.
        let maximumArguments: Int
        let acceptsPayload: Bool
        let allowedBeforeAuth: Bool
        /// Whether the options are checked even when a request gives none.
        let hasRequiredOptions: Bool
        /// The handler of a typed command; nil for one of positional Strings.
        let typed: (any TypedCommand.Type)?
    }

    init(_ commands: [Command]) {
        for command in commands { register(command) }
    }

    mutating func register(_ command: Command) {
        precondition(byName[command.name] == nil, "command \(command.name) declared twice")
        byName[command.name] = commands.count
        commands.append(command)
        words.append(PlainRequestLine.commandWord(command.name.utf8) ?? 0)
        hashWords()
        let typed: (any TypedCommand.Type)?
        switch command.handler {
        case .positional: typed = nil
        case .typed(let handler): typed = handler
        }
        gates.append(Gate(
            minimumArguments: command.minimumArguments, maximumArguments: command.maximumArguments ?? Int.max,
            acceptsPayload: command.acceptsPayload, allowedBeforeAuth: command.allowedBeforeAuth,
            hasRequiredOptions: command.hasRequiredOptions, typed: typed))
    }

    /// Rebuilds ``wordSlots`` for the words registered so far.
    private mutating func hashWords() {
        var bits: UInt64 = 1
        while 1 << bits < 4 * words.count { bits += 1 }
        slotShift = 64 - bits
        wordSlots = [Int](repeating: 0, count: 1 << bits)
        for (index, word) in words.enumerated() where word != 0 {
            var slot = firstSlot(of: word)
            while wordSlots[slot] != 0 { slot = (slot + 1) & (wordSlots.count - 1) }
            wordSlots[slot] = index + 1
        }
    }

    /// Fibonacci hashing: the top bits of the word times 2^64 / φ.
    @inline(__always)
    private func firstSlot(of word: UInt64) -> Int {
        Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> slotShift)
    }

    /// The index of the command whose name packs into `word`, if any.
    @inline(__always)
    private func index(ofWord word: UInt64) -> Int? {
        var slot = firstSlot(of: word)
        while true {
            let entry = wordSlots[slot]
            if entry == 0 { return nil }
            if words[entry - 1] == word { return entry - 1 }
            slot = (slot + 1) & (wordSlots.count - 1)
        }
    }

    func command(named name: String) -> Command? {
        index(named: name).map { commands[$0] }
    }

    private func index(named name: String) -> Int? {
        // Clients nearly always send the canonical upper case: try it as is first.
        byName[name] ?? byName[name.uppercased()]
    }

    /// The gate's look-up: the index in ``commands`` of the command
    /// `request` names (an index, so that the gate reads the entry in place).
    ///
    /// - Throws: `UNKNOWN`, suggesting the nearest name.
    func index<Incoming: IncomingRequest>(for request: Incoming) throws -> Int {
        if let word = request.commandWord {
            if let index = index(ofWord: word) { return index }
        } else if let index = index(named: request.commandName) {
            return index
        }
        let name = request.commandName
        var message = "unknown command '\(name)'"
        if let near = nearestName(to: name) { message += "; did you mean \(near)?" }
        message += " (HELP lists commands)"
        throw ProtocolError(.unknownCommand, message)
    }

    /// The gate's checks after the look-up, in this order: `NOAUTH` unless
    /// the connection has authenticated or the command is allowed before
    /// it; then `ARGS` for a payload it does not take or a positional count
    /// outside its arity (counted from the line or the request, without
    /// making the arguments); then `ARGS` for an option key it does not
    /// declare, one given twice, two alternatives or a required one missing
    /// (read as bytes; a request with no `key=value` argument, as a plain
    /// `TAP d 10 20`, is not looked at unless the command requires one).
    func admit<Incoming: IncomingRequest>(_ request: Incoming, to index: Int, isAuthenticated: Bool) throws {
        let gate = gates[index]
        if !isAuthenticated && !gate.allowedBeforeAuth {
            throw ProtocolError(.authenticationRequired, "authentication required: send AUTH <token> first (before it only HELLO, AUTH, PING, HELP and QUIT work)")
        }
        if request.hasPayload && !gate.acceptsPayload { throw commands[index].payloadError }
        let count = request.positionalCount
        if count < gate.minimumArguments || count > gate.maximumArguments { throw commands[index].arityError(count: count) }
        if request.keyedCount > 0 || gate.hasRequiredOptions { try commands[index].checkOptions(of: request) }
    }

    /// Over RESP, `request` re-read with the `key=value` elements whose key
    /// the command at `index` does not take as positional text (see
    /// ``Command/respElementsAsText(of:)``); nil when it stands as it is.
    /// Only for a connection the command may run on, so that `NOAUTH`
    /// still comes first.
    func respRereading<Incoming: IncomingRequest>(_ request: Incoming, for index: Int, isAuthenticated: Bool) throws -> Request? {
        guard request.framing == .resp, request.keyedCount > 0, isAuthenticated || gates[index].allowedBeforeAuth else { return nil }
        return try commands[index].respElementsAsText(of: request)
    }

    /// Reads the arguments of `request` (admitted) and runs the handler of
    /// the command at `index`.
    func perform<Incoming: IncomingRequest>(
        _ index: Int, _ request: Incoming, on connection: Connection, server: Server
    ) throws -> CommandOutcome {
        if let typed = gates[index].typed { return try request.perform(typed, on: connection, server: server) }
        guard case .positional(let handler) = commands[index].handler else {
            preconditionFailure("command \(commands[index].name) is typed but its gate has no typed handler")
        }
        return try handler(request.context(on: connection, server: server))
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
