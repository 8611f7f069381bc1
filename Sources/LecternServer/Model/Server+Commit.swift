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
    ///
    /// `apply` gets the new revision of each document written, in the
    /// order of ``StoreWrite/documentIDs``. With `--redis` the write is one
    /// script in Redis (``commitToRedis(_:_:apply:)``).
    func commit(
        _ context: CommandContext, _ write: StoreWrite, apply: @escaping ([Int]) throws -> Reply
    ) throws -> CommandOutcome {
        if cluster != nil { return try commitToRedis(context, write, apply: apply) }
        if persistence.writesInline {
            var written: Result<[Int], ProtocolError>?
            persistence.write(write) { written = $0 }
            guard let written else { preconditionFailure("an inline store write completes before write returns") }
            return .reply(try apply(written.get()))
        }
        let connection = context.connection
        let tag = context.request.tag
        connection.deferReply()
        persistence.write(write) { written in
            connection.completeDeferredReply(written.flatMap { stored in Result(catching: { try apply(stored) }) }, tag: tag)
        }
        return .deferred
    }

    /// The write as Redis's script: acknowledged after Redis applied it.
    /// If another node changed a document first, the document is reloaded
    /// and the request runs again on what it is now (at most
    /// ``conflictRetries`` times in a row).
    private func commitToRedis(
        _ context: CommandContext, _ write: StoreWrite, apply: @escaping ([Int]) throws -> Reply
    ) throws -> CommandOutcome {
        guard let cluster else { preconditionFailure("commitToRedis without --redis") }
        let writes = try clusterWrites(for: write)
        let connection = context.connection
        let tag = context.request.tag
        connection.deferReply()
        cluster.write(writes, by: connection.id, limit: configuration.maximumDocuments) { [unowned self] result in
            switch result {
            case .success(let revisions):
                connection.writeConflicts = 0
                connection.completeDeferredReply(Result(catching: { try apply(revisions) }), tag: tag)
            case .failure(.failed(let error)):
                connection.writeConflicts = 0
                connection.completeDeferredReply(.failure(error), tag: tag)
            case .failure(.conflict(let id)):
                connection.writeConflicts += 1
                guard connection.writeConflicts <= Self.conflictRetries else {
                    connection.writeConflicts = 0
                    return connection.completeDeferredReply(.failure(ProtocolError(
                        .store, "'\(id)' changed on other nodes during each of \(Self.conflictRetries) attempts; nothing was written, try again")), tag: tag)
                }
                refresh(id, origin: .redis) { refreshed in
                    if case .failure(let error) = refreshed {
                        connection.writeConflicts = 0
                        return connection.completeDeferredReply(.failure(error), tag: tag)
                    }
                    connection.redispatchDeferred(context.request)
                }
            }
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
