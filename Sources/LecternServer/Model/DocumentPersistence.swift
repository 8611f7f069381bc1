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
    private var queue: [(work: @Sendable () -> DocumentStoreError?, then: (ProtocolError?) -> Void)] = []
    private var isWriting = false
    /// Writes waiting or running, for STATS.
    var pendingWrites: Int { queue.count + (isWriting ? 1 : 0) }

    init(store: any DocumentStore, writesInline: Bool, server: Server) {
        self.store = store
        self.writesInline = writesInline
        self.server = server
    }

    /// Runs `work` against the store, then `then(nil)` after it committed or
    /// `then(error)` with the protocol error for its failure.
    func write(_ work: @escaping @Sendable (any DocumentStore) throws -> Void,
               then: @escaping (ProtocolError?) -> Void) {
        let store = self.store
        let job: @Sendable () -> DocumentStoreError? = {
            do {
                try work(store)
                return nil
            } catch let error as DocumentStoreError {
                return error
            } catch {
                return DocumentStoreError(.failure, "\(error)")
            }
        }
        if writesInline {
            then(job().map(Self.protocolError))
            return
        }
        queue.append((job, then))
        startNext()
    }

    private func startNext() {
        guard !isWriting, !queue.isEmpty else { return }
        isWriting = true
        let (job, then) = queue.removeFirst()
        BackgroundWork.run(on: server.loop, job) { [unowned self] failure in
            isWriting = false
            if let failure {
                Log.error("store_write_failed", ["code": failure.code.rawValue, "message": failure.message])
            }
            then(failure.map(Self.protocolError))
            startNext()
        }
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
