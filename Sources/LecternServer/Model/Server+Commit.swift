// Server+Commit.swift: changes are stored first, applied and acknowledged after.

import LecternProtocol
import LecternStore

extension Server {
    /// Writes a change to the store, then applies it in memory and replies.
    ///
    /// Nothing is acknowledged before it has committed: `apply` (which
    /// changes the in-memory documents and makes the reply) runs only after
    /// the store write succeeded; if the write fails, the client gets the
    /// store's error and nothing changes. With the SQLite store the reply is
    /// deferred while the write runs off the loop thread.
    func commit(
        _ context: CommandContext,
        store work: @escaping @Sendable (any DocumentStore) throws -> Void,
        apply: @escaping () throws -> Reply
    ) throws -> CommandOutcome {
        if persistence.writesInline {
            var failure: ProtocolError?
            persistence.write(work) { failure = $0 }
            if let failure { throw failure }
            return .reply(try apply())
        }
        let connection = context.connection
        let tag = context.request.tag
        connection.deferReply()
        persistence.write(work) { failure in
            connection.completeDeferredReply(failure.map { .failure($0) } ?? Result(catching: apply), tag: tag)
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
