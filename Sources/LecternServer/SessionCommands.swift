// SessionCommands.swift: PING, HELP and QUIT.

import LecternProtocol

extension Server {
    /// Commands about the connection itself.
    static let sessionCommands: [Command] = [
        Command(
            name: "PING", syntax: "[message]", minimumArguments: 0, maximumArguments: 1,
            summary: "Checks that the daemon answers: OK PONG, or OK and the message quoted.",
            details: ["PING        -> OK PONG", "PING \"hi\"   -> OK \"hi\""],
            handler: { context in
                guard let message = context.arguments.first else { return .reply(Reply("PONG")) }
                return .reply(Reply(ReplyEncoder.quote(message)))
            }),
        Command(
            name: "HELP", syntax: "[command]", minimumArguments: 0, maximumArguments: 1,
            summary: "Lists the commands, or explains one.",
            details: ["HELP        -> one line per command", "HELP PING   -> usage and examples of PING"],
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
                let width = (table.commands.map(\.usage.count).max() ?? 0) + 2
                let lines = table.commands.map { command in
                    command.usage + String(repeating: " ", count: width - command.usage.count) + command.summary
                }
                return .reply(Reply("\(lines.count) commands; HELP <command> for one", data: lines))
            }),
        Command(
            name: "QUIT", syntax: "", minimumArguments: 0, maximumArguments: 0,
            summary: "Closes the connection after this reply.",
            details: ["QUIT        -> OK BYE, then the daemon closes the connection"],
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
