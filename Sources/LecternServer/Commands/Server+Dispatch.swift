// Server+Dispatch.swift: the request path, from a decoded request to its handler.

import CUV
import LecternProtocol

extension Server {
    // MARK: Requests

    /// Every command, in the order HELP lists them.
    static var allCommands: [Command] {
        sessionCommands + [authCommand] + documentCommands + viewCommands + [renderCommand]
            + selectionCommands + watchCommands + typewriterCommands
    }

    /// Runs a plain request line (see ``dispatch(_:on:counted:)``).
    func dispatch(_ line: PlainRequestLine, on connection: Connection) {
        dispatch(line, on: connection, counted: true)
    }

    /// Runs a parsed request (see ``dispatch(_:on:counted:)``). `isRetry`:
    /// the request ran before and waited for a layout computed off the
    /// loop; it is not counted again in STATS.
    func dispatch(_ request: Request, on connection: Connection, isRetry: Bool = false) {
        dispatch(request, on: connection, counted: !isRetry)
    }

    /// The gate every request passes, whatever its framing: counted in
    /// STATS (unless `counted` is false: a retry), its command looked up,
    /// admitted (authentication, payload, arity), its arguments read and
    /// its handler run, then its reply sent (or deferred, or sent by the
    /// handler itself). Any error is the reply, with the request's tag.
    /// See ``Command``.
    private func dispatch<Incoming: IncomingRequest>(_ request: Incoming, on connection: Connection, counted: Bool) {
        if counted { statistics.commandsProcessed += 1 }
        // Timed for STATS's per-command figures (``recordRequest(_:from:to:_:on:isRetry:)``):
        // from the end of the request before it in the same burst, else now.
        let started = statistics.burstClock != 0 ? statistics.burstClock : uv_hrtime()
        var command = -1
        var end = RequestEnd.answered
        do {
            let index = try commands.index(for: request)
            command = index
            let isAuthenticated = connection.session.isAuthenticated
            let outcome: CommandOutcome
            if let reread = try commands.respRereading(request, for: index, isAuthenticated: isAuthenticated) {
                try commands.admit(reread, to: index, isAuthenticated: isAuthenticated)
                outcome = try commands.perform(index, reread, on: connection, server: self)
            } else {
                try commands.admit(request, to: index, isAuthenticated: isAuthenticated)
                outcome = try commands.perform(index, request, on: connection, server: self)
            }
            switch outcome {
            case .reply(let reply): connection.reply(reply, tag: request.replyTag)
            case .sent: break
            case .deferred: end = .deferred
            }
        } catch let miss as DocumentMiss where !connection.isAwaitingReply {
            // With --redis: a document this node has not cached yet.
            loadMissingDocument(miss, for: request.parsed(), on: connection)
            end = .deferred
        } catch {
            connection.reply(ProtocolError(reporting: error), tag: request.replyTag)
            end = .failed
        }
        let ended = uv_hrtime()
        statistics.burstClock = ended
        if command >= 0 { recordRequest(command, from: started, to: ended, end, on: connection, isRetry: !counted) }
    }
}
