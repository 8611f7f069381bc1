// MemoryDocumentStore.swift: a store that keeps documents in memory only (`--memory`).

import Foundation

/// A ``DocumentStore`` that keeps everything in memory: nothing touches the
/// disk and everything is gone when the process ends. For `lecternd
/// --memory`, tests and fuzzing. It follows the same rules as
/// ``SQLiteDocumentStore`` (validation, byte-wise ids, store-wide revisions),
/// so code tested against one behaves the same against the other.
///
/// Thread-safe: every call takes an internal lock.
public final class MemoryDocumentStore: DocumentStore, @unchecked Sendable {
    // Guarded by `lock`. Keyed by the id's UTF-8 bytes, not by `String`,
    // because `String` equality treats canonically equivalent spellings as equal.
    private var documents: [[UInt8]: StoredDocument] = [:]
    private var lastRevision: Int64 = 0
    private let lock = NSLock()

    /// Creates an empty store.
    public init() {}

    /// See ``DocumentStore/put(_:)``.
    ///
    /// - Complexity: O(*a*) for *a* attachments.
    public func put(_ document: DocumentRecord) throws(DocumentStoreError) -> StoredDocument {
        try document.validate()
        return lock.withLock { commit(document) }
    }

    /// See ``DocumentStore/put(all:)``.
    public func put(all documents: [DocumentRecord]) throws(DocumentStoreError) -> [StoredDocument] {
        for document in documents { try document.validate() }
        return lock.withLock { documents.map(commit) }
    }

    /// See ``DocumentStore/delete(id:)``.
    ///
    /// - Complexity: O(*k*) for an id of *k* bytes (hashing).
    public func delete(id: String) throws(DocumentStoreError) -> Bool {
        lock.withLock { documents.removeValue(forKey: Array(id.utf8)) != nil }
    }

    /// See ``DocumentStore/load(id:)``.
    ///
    /// - Complexity: O(*k*) for an id of *k* bytes (hashing).
    public func load(id: String) throws(DocumentStoreError) -> StoredDocument? {
        lock.withLock { documents[Array(id.utf8)] }
    }

    /// See ``DocumentStore/loadAll()``.
    ///
    /// - Complexity: O(*n* log *n*) for *n* documents (sorted on each call).
    public func loadAll() throws(DocumentStoreError) -> [StoredDocument] {
        lock.withLock {
            documents.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.value)
        }
    }

    /// See ``DocumentStore/setAttachment(_:documentID:)``.
    ///
    /// - Complexity: O(*a*) for *a* attachments.
    public func setAttachment(_ attachment: AttachmentRecord, documentID: String)
        throws(DocumentStoreError) -> StoredDocument
    {
        try attachment.validate()
        return try update(documentID: documentID) { (record) throws(DocumentStoreError) in
            let name = Array(attachment.name.utf8)
            if let index = record.attachments.firstIndex(where: { Array($0.name.utf8) == name }) {
                record.attachments[index] = attachment
            } else {
                record.attachments.append(attachment)
            }
        }
    }

    /// See ``DocumentStore/removeAttachment(named:documentID:)``.
    public func removeAttachment(named name: String, documentID: String)
        throws(DocumentStoreError) -> StoredDocument
    {
        try update(documentID: documentID) { (record) throws(DocumentStoreError) in
            let bytes = Array(name.utf8)
            guard let index = record.attachments.firstIndex(where: { Array($0.name.utf8) == bytes })
            else {
                throw DocumentStoreError(
                    .notFound, "document '\(documentID)' has no attachment named '\(name)'")
            }
            record.attachments.remove(at: index)
        }
    }

    /// Applies `change` to the stored record and commits the result, under the lock.
    private func update(
        documentID: String, _ change: (inout DocumentRecord) throws(DocumentStoreError) -> Void
    ) throws(DocumentStoreError) -> StoredDocument {
        lock.lock()
        defer { lock.unlock() }
        guard var record = documents[Array(documentID.utf8)]?.record else {
            throw DocumentStoreError(.notFound, "there is no document '\(documentID)'")
        }
        try change(&record)
        return commit(record)
    }

    /// Stores `record` under the next revision; the caller holds the lock.
    private func commit(_ record: DocumentRecord) -> StoredDocument {
        lastRevision += 1
        let stored = StoredDocument(
            record: record, revision: lastRevision,
            updatedAtMilliseconds: StoredDocument.currentTimeMilliseconds())
        documents[Array(record.id.utf8)] = stored
        return stored
    }
}
