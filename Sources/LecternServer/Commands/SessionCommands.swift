// SessionCommands.swift: HELLO, PING, HELP, QUIT and STATS.

import CUV
import LecternProtocol
import LecternText

extension Server {
    /// The protocol version this daemon speaks.
    static let protocolVersion = 1

    /// AUTH: the token, with failed attempts logged and rate-limited.
    static let authCommand = Command(
        name: "AUTH", syntax: "<token>",
        summary: "Authenticates this connection with the daemon's token (when it requires one).",
        details: [
            "AUTH s3cret -> OK AUTH",
            "A wrong token: ERR AUTH; after 3 failures one attempt a second; after 10 the connection is closed.",
            "After 10 failures from one address (any connections): ERR AUTH … retry in N s, the delay doubling per failure up to 60 s.",
            "Before AUTH a request is at most \(RequestDecoder.maximumUnauthenticatedRequestBytes) bytes (RESP: \(RequestDecoder.maximumUnauthenticatedArrayLength) elements) and carries no {N} or <<WORD payload: ERR NOAUTH, and the connection is closed.",
        ],
        allowedBeforeAuth: true,
        handler: { context in
            let server = context.server
            let connection = context.connection
            let session = connection.session
            guard server.access.isRequired else {
                throw ProtocolError(.authentication, "this daemon requires no token; every command is allowed")
            }
            guard try server.authenticate(context.arguments[0], on: connection, tag: context.request.tag, via: "AUTH") else { return .sent }
            session.failedAuthAttempts = 0
            Log.info("auth_succeeded", ["id": connection.id, "peer": connection.peer])
            return .reply(Reply("AUTH"))
        })

    /// Commands about the connection itself.
    static let sessionCommands: [Command] = [
        Command(
            name: "HELLO", syntax: "[version] [AUTH <user> <token>] [SETNAME <client>]",
            options: [SessionOptions.name, SessionOptions.units],
            summary: "Greets the daemon: protocol version, client name, the offset unit for this connection.",
            details: [
                "HELLO 1 name=reader units=grapheme -> OK HELLO protocol=1 server=lecternd/… units=grapheme connection=<id>",
                "Offsets and ranges on this connection are then counted in that unit (default utf16).",
                "From Redis clients (RESP): HELLO 2 or HELLO 3 picks the RESP version; AUTH and SETNAME as in Redis.",
            ],
            allowedBeforeAuth: true,
            handler: { context in
                let request = context.request
                let connection = context.connection
                let session = connection.session
                var words = context.arguments[...]
                var respVersion: Int?
                if let version = words.first {
                    words = words.dropFirst()
                    switch (version, request.framing) {
                    case (String(protocolVersion), _): break
                    case ("2", .resp), ("3", .resp): respVersion = Int(version)
                    default:
                        let expected = request.framing == .resp ? "\(protocolVersion), or RESP 2 or 3" : String(protocolVersion)
                        throw ProtocolError(.version, "this daemon speaks protocol \(expected), not '\(version)'")
                    }
                }
                var name = try SessionOptions.name.read(request)
                while let word = words.first {
                    switch (word.uppercased(), words.count) {
                    case ("AUTH", 3...):
                        let token = words[words.index(words.startIndex, offsetBy: 2)]
                        guard context.server.access.isRequired else { break }
                        // The same limits as AUTH: HELLO must not be a way around them.
                        guard try context.server.authenticate(token, on: connection, tag: request.tag, via: "HELLO") else { return .sent }
                        words = words.dropFirst(3)
                        continue
                    case ("SETNAME", 2...):
                        name = words[words.index(after: words.startIndex)]
                        words = words.dropFirst(2)
                        continue
                    default:
                        throw ProtocolError(.arguments, "unexpected '\(word)' in HELLO; usage: \(context.server.commands.command(named: "HELLO")?.usage ?? "HELLO")")
                    }
                    words = words.dropFirst(3)
                }
                if let units = try SessionOptions.units.read(request), let unit = OffsetUnit(rawValue: units) {
                    session.unit = unit
                }
                if let respVersion { session.respVersion = respVersion }
                if let name { session.clientName = name }
                var reply = Reply("HELLO protocol=\(protocolVersion) server=lecternd/\(Lectern.version) units=\(session.unit.rawValue) connection=\(connection.id)")
                // Redis clients read HELLO's answer as a map (and check "proto").
                reply.resp = .map([
                    (.text("server"), .text("lecternd")), (.text("version"), .text(Lectern.version)),
                    (.text("proto"), .integer(session.respVersion)), (.text("id"), .integer(Int(connection.id))),
                    (.text("mode"), .text("standalone")), (.text("role"), .text("master")),
                    (.text("modules"), .array([])), (.text("lectern-protocol"), .integer(protocolVersion)),
                    (.text("units"), .text(session.unit.rawValue)),
                ])
                return .reply(reply)
            }),
        Command(
            name: "PING", syntax: "[message]",
            summary: "Checks that the daemon answers: OK PONG, or OK and the message quoted.",
            details: ["PING        -> OK PONG", "PING \"hi\"   -> OK \"hi\""],
            allowedBeforeAuth: true, typed: Ping.self),
        Command(
            name: "HELP", syntax: "[command]",
            summary: "Lists the commands, or explains one.",
            details: ["HELP        -> one line per command", "HELP PING   -> usage and examples of PING"],
            allowedBeforeAuth: true,
            handler: { context in
                let table = context.server.commands
                if let name = context.arguments.first {
                    guard let command = table.command(named: name) else {
                        var message = "no command '\(name)'"
                        if let near = table.nearestName(to: name) { message += "; did you mean \(near)?" }
                        throw ProtocolError(.unknownCommand, message)
                    }
                    return .reply(Reply(command.name, data: command.help))
                }
                let width = (table.commands.map(\.name.count).max() ?? 0) + 2
                let lines = table.commands.map { command in
                    command.name + String(repeating: " ", count: width - command.name.count) + command.summary
                }
                return .reply(Reply("\(lines.count) commands; HELP <command> for one", data: lines))
            }),
        Command(
            name: "QUIT", syntax: "",
            summary: "Closes the connection after this reply.",
            details: ["QUIT        -> OK BYE, then the daemon closes the connection"],
            allowedBeforeAuth: true,
            handler: { context in
                context.connection.finishAfterOutput()
                return .reply(Reply("BYE"))
            }),
        Command(
            name: "STATS", syntax: "[section]", options: [StatsOptions.format],
            summary: "Reports the daemon's figures by section, as Redis INFO: commands, latency, errors, memory, store; or for Prometheus.",
            details: [
                "STATS                    -> per section a '* # section' line and one '* name value' line per figure, then OK STATS",
                "STATS commands           -> that section only; sections: " + StatisticsReport.sectionNames.joined(separator: ", "),
                "STATS format=prometheus  -> the same figures in Prometheus text format, one data line per line (also GET /metrics with --metrics-port)",
                "Per command (once called): command_<name> calls=… errors=… usec=… usec_per_call=… p50_usec=… p99_usec=…",
                "Errors by code: error_<CODE> <count>; requests per second: commands_per_second (last whole second), commands_per_second_10s, commands_per_second_60s",
            ],
            handler: { context in
                let server = context.server
                var section: String?
                if let name = context.arguments.first {
                    guard StatisticsReport.sectionNames.contains(name.lowercased()) || name.lowercased() == "all" else {
                        throw ProtocolError(.arguments, "no STATS section '\(name)'; sections: \(StatisticsReport.sectionNames.joined(separator: ", ")) (or all)")
                    }
                    section = name.lowercased() == "all" ? nil : name.lowercased()
                }
                let prometheus = try StatsOptions.format.read(context.request) == "prometheus"
                return server.statisticsOutcome(section: section, prometheus: prometheus, context)
            }),
    ]

    /// PING's handler. Health checks and keep-alives send a bare PING,
    /// often: read from a plain line, it makes no String.
    fileprivate enum Ping: TypedCommand {
        /// The message to echo, or nil for PONG.
        struct Arguments {
            let message: String?
        }

        static func arguments(plain line: borrowing PlainRequestLine) -> Arguments? {
            Arguments(message: line.positional(0).map { String(decoding: $0, as: UTF8.self) })
        }

        static func arguments(_ request: Request) throws -> Arguments {
            Arguments(message: request.positional.first)
        }

        static func handle<Incoming: IncomingRequest>(
            _ arguments: Arguments, of request: Incoming, on connection: Connection, server: Server
        ) -> CommandOutcome {
            guard let message = arguments.message else { return .reply(Reply("PONG")) }
            return .reply(Reply(ReplyEncoder.quote(message)))
        }
    }
}
