// Server+Commit.swift: changes are stored first, applied and acknowledged after.

import LecternProtocol
import LecternStore

extension Server {
    /// Writes a change to the store, then applies it in memory and replies.
    ///
    /// Nothing is acknowledged before it has committed: `apply` (which
    /// changes the in-memory documents and makes the reply) runs only after
    /// the store write succeeded, with what the write returned (the
    /// documents as stored: their revisions are the ones the wire shows,
    /// see ``Document/revision``); if the write fails, the client gets the
    /// store's error and nothing changes. With the SQLite store the reply is
    /// deferred while the write runs off the loop thread.
    func commit<Stored: Sendable>(
        _ context: CommandContext,
        store work: @escaping @Sendable (any DocumentStore) throws -> Stored,
        apply: @escaping (Stored) throws -> Reply
    ) throws -> CommandOutcome {
        if persistence.writesInline {
            var written: Result<Stored, ProtocolError>?
            persistence.write(work) { written = $0 }
            guard let written else { preconditionFailure("an inline store write completes before write returns") }
            return .reply(try apply(written.get()))
        }
        let connection = context.connection
        let tag = context.request.tag
        connection.deferReply()
        persistence.write(work) { written in
            connection.completeDeferredReply(written.flatMap { stored in Result(catching: { try apply(stored) }) }, tag: tag)
        }
        return .deferred
    }
}

extension Result where Success == Reply, Failure == ProtocolError {
    /// The reply `body` makes, or the protocol error it throws.
    init(catching body: () throws -> Reply) {
        do {
            self = .success(try body())
        } catch {
            self = .failure(ProtocolError(reporting: error))
        }
    }
}

extension Connection {
    /// Completes a deferred reply with whatever a handler's outcome was.
    func completeDeferred(_ outcome: () throws -> CommandOutcome, tag: String?) {
        do {
            switch try outcome() {
            case .reply(let reply): completeDeferredReply(.success(reply), tag: tag)
            case .deferred, .sent: break  // completed later, or already sent
            }
        } catch {
            completeDeferredReply(.failure(ProtocolError(reporting: error)), tag: tag)
        }
    }
}
