// StoreWrite.swift: one change to the documents, as every store takes it.

import LecternStore

/// A write, described as a value: the SQLite and memory stores run it
/// through ``DocumentStore`` on the thread pool, the Redis store
/// (``RedisDocuments``) as one script. Either way it commits completely or
/// not at all, and what comes back is the new revision of each document it
/// wrote, in order (none for a delete).
enum StoreWrite: Sendable {
    case put(DocumentRecord)
    /// Several documents together (MOVE, COPY: the target, then the source).
    case putAll([DocumentRecord])
    case delete(id: String)
    case setAttachment(AttachmentRecord, documentID: String)
    case removeAttachment(name: String, documentID: String)

    /// The documents the write changes, in the order of its revisions.
    var documentIDs: [String] {
        switch self {
        case .put(let record): return [record.id]
        case .putAll(let records): return records.map(\.id)
        case .delete(let id): return [id]
        case .setAttachment(_, let id), .removeAttachment(_, let id): return [id]
        }
    }

    /// Runs the write against a local store.
    func run(on store: any DocumentStore) throws(DocumentStoreError) -> [Int] {
        switch self {
        case .put(let record): return [try store.put(record).wireRevision]
        case .putAll(let records): return try store.put(all: records).map(\.wireRevision)
        case .delete(let id):
            _ = try store.delete(id: id)
            return []
        case .setAttachment(let attachment, let id): return [try store.setAttachment(attachment, documentID: id).wireRevision]
        case .removeAttachment(let name, let id): return [try store.removeAttachment(named: name, documentID: id).wireRevision]
        }
    }
}
