// DocumentPersistence.swift: store writes, one at a time, off the loop thread.

import LecternProtocol
import LecternStore

/// Writes documents to the store so that a change is acknowledged only
/// after it has committed, without stalling the loop for other clients.
///
/// Writes run one at a time, in the order they were submitted, on libuv's
/// thread pool (the SQLite store fsyncs each commit); their completions run
/// on the loop thread in the same order, which is where the in-memory state
/// is changed and the client answered. The in-memory store (`--memory`) is
/// written inline: there is nothing to wait for.
///
/// Loop thread only (the store itself is called from one pool thread at a time).
final class DocumentPersistence {
    let store: any DocumentStore
    /// Whether writes run on the loop thread (in-memory store).
    let writesInline: Bool
    private unowned let server: Server
    /// Writes waiting to start, in order; each starts itself on the pool.
    private var queue: [() -> Void] = []
    private var isWriting = false
    /// Writes waiting or running, for STATS.
    var pendingWrites: Int { queue.count + (isWriting ? 1 : 0) }

    init(store: any DocumentStore, writesInline: Bool, server: Server) {
        self.store = store
        self.writesInline = writesInline
        self.server = server
    }

    /// Runs `write` against the store, then `then` with the revisions it
    /// gave (``StoreWrite``) after it committed, or with the protocol error
    /// for its failure.
    func write(_ write: StoreWrite, then: @escaping (Result<[Int], ProtocolError>) -> Void) {
        let store = self.store
        let job: @Sendable () -> Result<[Int], DocumentStoreError> = {
            do throws(DocumentStoreError) {
                return .success(try write.run(on: store))
            } catch {
                return .failure(error)
            }
        }
        if writesInline {
            then(job().mapError(Self.protocolError))
            return
        }
        queue.append { [unowned self] in
            BackgroundWork.run(on: server.loop, job) { [unowned self] result in
                isWriting = false
                if case .failure(let failure) = result {
                    Log.error("store_write_failed", ["code": failure.code.rawValue, "message": failure.message])
                }
                then(result.mapError(Self.protocolError))
                startNext()
            }
        }
        startNext()
    }

    private func startNext() {
        guard !isWriting, !queue.isEmpty else { return }
        isWriting = true
        queue.removeFirst()()
    }

    /// The protocol error for a store failure: `READONLY`, `FULL` or `STORE`.
    static func protocolError(_ error: DocumentStoreError) -> ProtocolError {
        switch error.code {
        case .readOnly:
            return ProtocolError(.readOnly, "the store is read-only (\(error.message)); nothing was written, reads still work")
        case .full:
            return ProtocolError(.storeFull, "the store's disk is full (\(error.message)); nothing was written, reads still work")
        case .notFound:
            return ProtocolError(.noDocument, error.message)
        default:
            return ProtocolError(.store, "the store failed: \(error.message); nothing was written")
        }
    }
}
