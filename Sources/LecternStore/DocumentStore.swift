// DocumentStore.swift: the durable home of documents, behind one small protocol.

/// Where the daemon keeps documents so that they survive a restart.
///
/// Every method either commits completely or changes nothing: a document and
/// its attachments are always written together. When a mutating method
/// returns, the change is committed (for ``SQLiteDocumentStore``, durably on
/// disk), so the daemon may acknowledge it to the client.
///
/// Threading: implementations are safe to call from any thread, one call at a
/// time or concurrently (they serialize internally); the daemon calls them
/// from libuv worker threads so that writes never stall its loop.
///
/// Ids and attachment names compare byte for byte in UTF-8; see
/// ``DocumentRecord``.
public protocol DocumentStore: AnyObject, Sendable {
    /// Inserts the document, or replaces the one with the same id together
    /// with all of its attachments, in one transaction.
    ///
    /// - Returns: the document as stored, with its new revision.
    /// - Throws: `.invalidArgument` if ``DocumentRecord/validate()`` fails;
    ///   `.readOnly`, `.full` or `.failure` if the write cannot be committed,
    ///   in which case the previous version (if any) is kept intact.
    func put(_ document: DocumentRecord) throws(DocumentStoreError) -> StoredDocument

    /// Inserts or replaces several documents (each with all of its
    /// attachments) in one transaction: all of them are committed, or none
    /// is. MOVE needs this: its target and its source change together.
    ///
    /// - Returns: the documents as stored, in order, with their new revisions.
    /// - Throws: as ``put(_:)``; nothing is written if any record is invalid
    ///   or any write fails.
    func put(all documents: [DocumentRecord]) throws(DocumentStoreError) -> [StoredDocument]

    /// Deletes the document and its attachments.
    ///
    /// - Returns: `true` if a document was deleted, `false` if there was none with that id.
    func delete(id: String) throws(DocumentStoreError) -> Bool

    /// The document with the given id, or `nil` if there is none.
    func load(id: String) throws(DocumentStoreError) -> StoredDocument?

    /// Every document, ordered by id (byte order of the UTF-8), for the
    /// daemon's start-up restore.
    ///
    /// - Complexity: O(*n* + *a*) rows read for *n* documents and *a* attachments.
    func loadAll() throws(DocumentStoreError) -> [StoredDocument]

    /// Adds the attachment to the document, or replaces the document's
    /// attachment with the same name in place (keeping its position in the list).
    ///
    /// - Returns: the document as stored, with its new revision.
    /// - Throws: `.notFound` if there is no document with that id.
    func setAttachment(_ attachment: AttachmentRecord, documentID: String)
        throws(DocumentStoreError) -> StoredDocument

    /// Removes the named attachment from the document.
    ///
    /// - Returns: the document as stored, with its new revision.
    /// - Throws: `.notFound` if there is no such document, or it has no
    ///   attachment with that name.
    func removeAttachment(named name: String, documentID: String)
        throws(DocumentStoreError) -> StoredDocument
}
