// Server+Dispatch.swift: the request path, from a decoded request to its handler.

import LecternProtocol

extension Server {
    // MARK: Requests

    /// Runs one request's command and sends its reply (or defers it).
    /// `isRetry`: the request ran before and waited for a layout computed
    /// off the loop; it is not counted again in STATS.
    func dispatch(_ request: Request, on connection: Connection, isRetry: Bool = false) {
        if !isRetry { statistics.commandsProcessed += 1 }
        do {
            let (command, arguments) = try commands.resolve(request)
            if !connection.session.isAuthenticated && !command.allowedBeforeAuth {
                throw ProtocolError(.authenticationRequired, "authentication required: send AUTH <token> first (before it only HELLO, AUTH, PING, HELP and QUIT work)")
            }
            let context = CommandContext(request: request, connection: connection, server: self, arguments: arguments)
            switch try command.handler(context) {
            case .reply(let reply): connection.reply(reply, tag: request.tag)
            case .deferred, .sent: break
            }
        } catch {
            connection.reply(ProtocolError(reporting: error), tag: request.tag)
        }
    }
}

extension Server {
    /// Runs a plain request line: through its command's plain handler when
    /// it has one that takes the line, else parsed and dispatched as usual.
    func dispatch(_ line: PlainRequestLine, on connection: Connection) {
        if connection.session.isAuthenticated, let handler = commands.plainHandler(for: line), handler(self, line, connection) {
            statistics.commandsProcessed += 1
            return
        }
        dispatch(line.request(), on: connection)
    }
}
