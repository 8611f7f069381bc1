// SessionCommands.swift: HELLO, PING, HELP, QUIT and STATS.

import CUV
import LecternProtocol
import LecternText

extension Server {
    /// The protocol version this daemon speaks.
    static let protocolVersion = 1

    /// AUTH: the token, with failed attempts logged and rate-limited.
    static let authCommand = Command(
        name: "AUTH", syntax: "<token>", minimumArguments: 1, maximumArguments: 1,
        summary: "Authenticates this connection with the daemon's token (when it requires one).",
        details: ["AUTH s3cret -> OK AUTH", "A wrong token: ERR AUTH; after 3 failures one attempt a second; after 10 the connection is closed."],
        allowedBeforeAuth: true,
        handler: { context in
            let server = context.server
            let connection = context.connection
            let session = connection.session
            guard server.access.isRequired else {
                throw ProtocolError(.authentication, "this daemon requires no token; every command is allowed")
            }
            let now = uv_now(server.loop)
            if session.failedAuthAttempts >= AccessControl.freeAttempts,
                now &- session.lastFailedAuth < AccessControl.retryDelayMilliseconds
            {
                throw ProtocolError(.authentication, "too many failed attempts; wait a second between tries")
            }
            guard server.access.accepts(context.arguments[0]) else {
                session.failedAuthAttempts += 1
                session.lastFailedAuth = now
                Log.warning("auth_failed", ["id": connection.id, "peer": connection.peer, "attempts": session.failedAuthAttempts])
                if session.failedAuthAttempts >= AccessControl.maximumAttempts {
                    connection.fail(ProtocolError(.authentication, "too many failed attempts; closing"), tag: context.request.tag)
                    return .sent
                }
                throw ProtocolError(.authentication, "wrong token")
            }
            session.isAuthenticated = true
            session.failedAuthAttempts = 0
            Log.info("auth_succeeded", ["id": connection.id, "peer": connection.peer])
            return .reply(Reply("AUTH"))
        })

    /// Commands about the connection itself.
    static let sessionCommands: [Command] = [
        Command(
            name: "HELLO", syntax: "[version] [name=<client>] [units=utf16|utf8|scalar|grapheme]",
            minimumArguments: 0, maximumArguments: 1,
            summary: "Greets the daemon: protocol version, client name, the offset unit for this connection.",
            details: [
                "HELLO 1 name=reader units=grapheme -> OK HELLO protocol=1 server=lecternd/… units=grapheme connection=<id>",
                "Offsets and ranges on this connection are then counted in that unit (default utf16).",
            ],
            allowedBeforeAuth: true,
            handler: { context in
                if let version = context.arguments.first {
                    guard version == String(protocolVersion) else {
                        throw ProtocolError(.version, "this daemon speaks protocol \(protocolVersion), not '\(version)'")
                    }
                }
                let session = context.connection.session
                if let units = context.request.value(for: "units") {
                    guard let unit = OffsetUnit(rawValue: units.lowercased()) else {
                        throw ProtocolError(.arguments, "units must be utf16, utf8, scalar or grapheme, not '\(units)'")
                    }
                    session.unit = unit
                }
                if let name = context.request.value(for: "name") { session.clientName = name }
                let reply = "HELLO protocol=\(protocolVersion) server=lecternd/\(Lectern.version) units=\(session.unit.rawValue) connection=\(context.connection.id)"
                return .reply(Reply(reply))
            }),
        Command(
            name: "PING", syntax: "[message]", minimumArguments: 0, maximumArguments: 1,
            summary: "Checks that the daemon answers: OK PONG, or OK and the message quoted.",
            details: ["PING        -> OK PONG", "PING \"hi\"   -> OK \"hi\""],
            allowedBeforeAuth: true,
            handler: { context in
                guard let message = context.arguments.first else { return .reply(Reply("PONG")) }
                return .reply(Reply(ReplyEncoder.quote(message)))
            }),
        Command(
            name: "HELP", syntax: "[command]", minimumArguments: 0, maximumArguments: 1,
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
                    return .reply(Reply(command.name, data: [command.usage, command.summary] + command.details))
                }
                let width = (table.commands.map(\.name.count).max() ?? 0) + 2
                let lines = table.commands.map { command in
                    command.name + String(repeating: " ", count: width - command.name.count) + command.summary
                }
                return .reply(Reply("\(lines.count) commands; HELP <command> for one", data: lines))
            }),
        Command(
            name: "QUIT", syntax: "", minimumArguments: 0, maximumArguments: 0,
            summary: "Closes the connection after this reply.",
            details: ["QUIT        -> OK BYE, then the daemon closes the connection"],
            allowedBeforeAuth: true,
            handler: { context in
                context.connection.finishAfterOutput()
                return .reply(Reply("BYE"))
            }),
        Command(
            name: "STATS", syntax: "", minimumArguments: 0, maximumArguments: 0,
            summary: "Reports the daemon's figures: connections, documents, commands per second, memory, output buffers.",
            details: ["STATS       -> one '* name value' line per figure, then OK STATS"],
            handler: { context in .reply(Reply("STATS", data: context.server.statisticsLines())) }),
    ]
}
