// SQLiteDocumentStore.swift: the embedded default store, one SQLite file in WAL mode.

import CSQLite
import Foundation

/// A ``DocumentStore`` in a SQLite database, `lectern.db`, under a data
/// directory: Lectern's embedded default, needing no server.
///
/// Durability: the database runs in WAL mode with `synchronous = FULL`, so
/// every commit fsyncs the write-ahead log before the write returns. (WAL
/// with `NORMAL` survives a crash of the process but can lose the last
/// commits on power loss; since a returned write is acknowledged to the
/// client, we pay the fsync.) Each write is one transaction: a document and
/// its attachments are committed together or not at all.
///
/// Faults (see ``DocumentStoreError/Code``):
/// - At open, `PRAGMA quick_check` runs; a damaged file, or one that is not a
///   SQLite database, throws `.corrupt` naming the file.
/// - If the data directory or the database cannot be written (a read-only
///   mount, an immutable file, permissions), the store opens read-only: reads
///   work, writes throw `.readOnly`, and ``readOnlyReason`` says why.
/// - A full disk (or ``SQLiteStoreOptions/maximumDatabaseBytes``) makes the
///   write throw `.full` and roll back; reads keep working.
///
/// One owner per directory: opened with `.readWrite` access (what the daemon
/// does), the store holds an exclusive `flock` on `<directory>/lectern.lock`
/// for its whole life, taken before SQLite opens anything; a second store on
/// the same directory, in this process or another, throws `.locked` naming
/// the holder's PID. That holds in the read-only fallback too, on an
/// existing lock file opened read-only (see ``holdsDirectoryLock``). With
/// `.readOnly` access no lock is taken: such a store never writes and reads
/// what SQLite has committed, so it may look at a directory a daemon owns.
///
/// Threading: safe to call from any thread. Calls are serialized by an
/// internal lock (the daemon already serializes them, so it is never
/// contended); the SQLite connection is opened `SQLITE_OPEN_NOMUTEX`
/// because that lock already guarantees one thread at a time.
public final class SQLiteDocumentStore: DocumentStore, @unchecked Sendable {
    /// The database file, `<directory>/lectern.db`.
    public let databasePath: String
    /// Why this store refuses writes, or `nil` if it accepts them. Set when
    /// opened with `.readOnly` access or when the directory or database
    /// proved unwritable at open; the daemon should log it at start-up.
    public let readOnlyReason: String?
    /// Whether this store holds the data directory's lock. False only with
    /// `.readOnly` access, or in the read-only fallback when the directory
    /// has no lock file that could be opened: then nothing stops another
    /// process from using the directory, and the daemon says so.
    public var holdsDirectoryLock: Bool { directoryLock != nil }

    // Guarded by `lock`, as is every statement the connection caches.
    private let connection: SQLiteConnection
    private let lock = NSLock()
    /// The data directory's lock, released when the store goes away.
    private let directoryLock: DataDirectoryLock?

    /// Opens (creating if needed) the store under `directory`.
    ///
    /// Creates the directory and its parents, opens or creates `lectern.db`,
    /// checks its integrity (`PRAGMA quick_check`, O(size of the file)) and
    /// brings its schema up to date. Falls back to read-only as described in
    /// the type's documentation.
    ///
    /// - Throws: `.locked` if another store holds the directory's lock;
    ///   `.corrupt` for a damaged file or one that is not a
    ///   database; `.incompatibleVersion` for a schema from a newer Lectern;
    ///   `.readOnly` if the directory cannot be written and holds no database
    ///   to read; `.failure` for other SQLite errors.
    public init(directory: String, options: SQLiteStoreOptions = SQLiteStoreOptions())
        throws(DocumentStoreError)
    {
        let directory = DataDirectory(path: directory)
        databasePath = directory.databasePath
        let refusal: String
        switch options.access {
        case .readOnly:
            refusal = "the store was opened read-only"
            directoryLock = nil
        case .readWrite:
            if let reason = directory.create() ?? directory.writeRefusal() {
                refusal = reason
                directoryLock = try directory.lock(canWrite: false)
            } else {
                // Before SQLite opens the file: the holder may be mid-write.
                directoryLock = try directory.lock(canWrite: true)
                let writable = try SQLiteConnection(
                    filename: databasePath, path: databasePath,
                    flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
                guard writable.isReadOnly else {
                    connection = writable
                    readOnlyReason = nil
                    try Self.checkIntegrity(writable)
                    try Self.prepareForWriting(writable, options: options)
                    return
                }
                refusal = "SQLite could open \(databasePath) only for reading"
            }
        }
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw DocumentStoreError(
                .readOnly, "\(refusal), and there is no database \(databasePath) to read")
        }
        connection = try Self.openReadOnly(directory)
        readOnlyReason = refusal
        try Self.checkIntegrity(connection)
        try Self.checkSchemaVersion(connection, canMigrate: false)
    }

    /// See ``DocumentStore/put(_:)``. Commits with an fsync before returning.
    ///
    /// - Complexity: O(*a*) statements for *a* attachments, plus one fsync.
    public func put(_ document: DocumentRecord) throws(DocumentStoreError) -> StoredDocument {
        try document.validate()
        return try write { () throws(DocumentStoreError) in try upsert(document) }
    }

    /// See ``DocumentStore/put(all:)``. One transaction, one fsync.
    public func put(all documents: [DocumentRecord]) throws(DocumentStoreError) -> [StoredDocument] {
        for document in documents { try document.validate() }
        return try write { () throws(DocumentStoreError) in
            var stored: [StoredDocument] = []
            for document in documents { stored.append(try upsert(document)) }
            return stored
        }
    }

    /// Writes one document and its attachments; the caller holds the lock
    /// and a write transaction.
    private func upsert(_ document: DocumentRecord) throws(DocumentStoreError) -> StoredDocument {
        let revision = try nextRevision()
        let now = StoredDocument.currentTimeMilliseconds()
        try connection.withStatement(
            """
            INSERT INTO documents (id, text, language, segmentation, revision, updated_at_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (id) DO UPDATE SET text = excluded.text, language = excluded.language,
                segmentation = excluded.segmentation, revision = excluded.revision,
                updated_at_ms = excluded.updated_at_ms
            """
        ) { (statement) throws(DocumentStoreError) in
            try statement.bind(1, text: document.id)
            try statement.bind(2, blob: document.text)
            try statement.bind(3, optionalText: document.language)
            try statement.bind(4, text: document.segmentation)
            try statement.bind(5, integer: revision)
            try statement.bind(6, integer: now)
            try statement.run()
        }
        try deleteAttachments(documentID: document.id)
        for (position, attachment) in document.attachments.enumerated() {
            try insert(attachment, documentID: document.id, position: Int64(position))
        }
        return StoredDocument(record: document, revision: revision, updatedAtMilliseconds: now)
    }

    /// See ``DocumentStore/delete(id:)``. Commits with an fsync before returning.
    public func delete(id: String) throws(DocumentStoreError) -> Bool {
        try write { () throws(DocumentStoreError) in
            try deleteAttachments(documentID: id)
            try connection.withStatement("DELETE FROM documents WHERE id = ?1") {
                (statement) throws(DocumentStoreError) in
                try statement.bind(1, text: id)
                try statement.run()
            }
            return sqlite3_changes(connection.handle) > 0
        }
    }

    /// See ``DocumentStore/load(id:)``.
    ///
    /// - Complexity: O(log *n* + *a*) for *n* documents and *a* attachments of this one.
    public func load(id: String) throws(DocumentStoreError) -> StoredDocument? {
        try locked { () throws(DocumentStoreError) in
            try connection.transaction(immediate: false) { () throws(DocumentStoreError) in
                try loadDocument(id: id)
            }
        }
    }

    /// See ``DocumentStore/loadAll()``: two ordered scans in one read
    /// transaction, merged in memory.
    ///
    /// - Complexity: O(*n* + *a*) for *n* documents and *a* attachments.
    public func loadAll() throws(DocumentStoreError) -> [StoredDocument] {
        try locked { () throws(DocumentStoreError) in
            try connection.transaction(immediate: false) { () throws(DocumentStoreError) in
                var documents = try connection.withStatement(
                    """
                    SELECT id, text, language, segmentation, revision, updated_at_ms
                    FROM documents ORDER BY id
                    """
                ) { (statement) throws(DocumentStoreError) in
                    var documents: [StoredDocument] = []
                    while try statement.step() { documents.append(Self.document(from: statement)) }
                    return documents
                }
                try connection.withStatement(
                    """
                    SELECT document_id, name, utf16_offset, width, height, baseline, follows_end
                    FROM attachments ORDER BY document_id, position
                    """
                ) { (statement) throws(DocumentStoreError) in
                    // Both scans are in the same (byte-wise) id order: walk them together.
                    var index = documents.startIndex
                    while try statement.step() {
                        let owner = statement.text(0)
                        while index < documents.endIndex,
                            documents[index].id.utf8.lexicographicallyPrecedes(owner.utf8)
                        {
                            index += 1
                        }
                        guard index < documents.endIndex,
                            documents[index].id.utf8.elementsEqual(owner.utf8)
                        else { continue }  // an orphan row; foreign keys prevent these
                        documents[index].record.attachments.append(
                            Self.attachment(from: statement, firstColumn: 1))
                    }
                }
                return documents
            }
        }
    }

    /// See ``DocumentStore/setAttachment(_:documentID:)``. Commits with an
    /// fsync before returning.
    public func setAttachment(_ attachment: AttachmentRecord, documentID: String)
        throws(DocumentStoreError) -> StoredDocument
    {
        try attachment.validate()
        return try updateDocument(documentID: documentID) { () throws(DocumentStoreError) in
            let replaced = try connection.withStatement(
                """
                UPDATE attachments SET utf16_offset = ?3, width = ?4, height = ?5, baseline = ?6,
                    follows_end = ?7
                WHERE document_id = ?1 AND name = ?2
                """
            ) { (statement) throws(DocumentStoreError) in
                try statement.bind(1, text: documentID)
                try Self.bindValues(of: attachment, to: statement, firstParameter: 2)
                try statement.run()
                return sqlite3_changes(connection.handle) > 0
            }
            if !replaced {
                let position = try connection.withStatement(
                    "SELECT COALESCE(MAX(position) + 1, 0) FROM attachments WHERE document_id = ?1"
                ) { (statement) throws(DocumentStoreError) in
                    try statement.bind(1, text: documentID)
                    return try statement.step() ? statement.integer(0) : 0
                }
                try insert(attachment, documentID: documentID, position: position)
            }
        }
    }

    /// See ``DocumentStore/removeAttachment(named:documentID:)``. Commits
    /// with an fsync before returning.
    public func removeAttachment(named name: String, documentID: String)
        throws(DocumentStoreError) -> StoredDocument
    {
        try updateDocument(documentID: documentID) { () throws(DocumentStoreError) in
            let removed = try connection.withStatement(
                "DELETE FROM attachments WHERE document_id = ?1 AND name = ?2"
            ) { (statement) throws(DocumentStoreError) in
                try statement.bind(1, text: documentID)
                try statement.bind(2, text: name)
                try statement.run()
                return sqlite3_changes(connection.handle) > 0
            }
            if !removed {
                throw DocumentStoreError(
                    .notFound, "document '\(documentID)' has no attachment named '\(name)'")
            }
        }
    }

    // MARK: Writing

    /// Runs `body` under the lock in an immediate transaction, unless the
    /// store is read-only.
    private func write<T>(_ body: () throws(DocumentStoreError) -> T) throws(DocumentStoreError) -> T {
        if let readOnlyReason {
            throw DocumentStoreError(
                .readOnly, "cannot write to \(databasePath): \(readOnlyReason); reads still work")
        }
        return try locked { () throws(DocumentStoreError) in
            try connection.transaction(immediate: true, body)
        }
    }

    /// Checks that the document exists, runs `change` on its attachments,
    /// gives it the next revision and returns it as now stored.
    private func updateDocument(
        documentID: String, _ change: () throws(DocumentStoreError) -> Void
    ) throws(DocumentStoreError) -> StoredDocument {
        try write { () throws(DocumentStoreError) in
            let revision = try nextRevision()
            let exists = try connection.withStatement(
                "UPDATE documents SET revision = ?2, updated_at_ms = ?3 WHERE id = ?1"
            ) { (statement) throws(DocumentStoreError) in
                try statement.bind(1, text: documentID)
                try statement.bind(2, integer: revision)
                try statement.bind(3, integer: StoredDocument.currentTimeMilliseconds())
                try statement.run()
                return sqlite3_changes(connection.handle) > 0
            }
            guard exists else {
                throw DocumentStoreError(.notFound, "there is no document '\(documentID)'")
            }
            try change()
            guard let document = try loadDocument(id: documentID) else {
                throw DocumentStoreError(.notFound, "there is no document '\(documentID)'")
            }
            return document
        }
    }

    /// Takes the next store-wide revision (inside the caller's transaction,
    /// so a rolled-back write does not consume it).
    private func nextRevision() throws(DocumentStoreError) -> Int64 {
        try connection.withStatement(
            "UPDATE store_state SET last_revision = last_revision + 1 RETURNING last_revision"
        ) { (statement) throws(DocumentStoreError) in
            guard try statement.step() else {
                throw DocumentStoreError(
                    .corrupt, "the database file \(databasePath) has lost its revision counter")
            }
            let revision = statement.integer(0)
            try statement.run()  // finish the statement so that the update completes
            return revision
        }
    }

    private func deleteAttachments(documentID: String) throws(DocumentStoreError) {
        try connection.withStatement("DELETE FROM attachments WHERE document_id = ?1") {
            (statement) throws(DocumentStoreError) in
            try statement.bind(1, text: documentID)
            try statement.run()
        }
    }

    private func insert(_ attachment: AttachmentRecord, documentID: String, position: Int64)
        throws(DocumentStoreError)
    {
        try connection.withStatement(
            """
            INSERT INTO attachments
                (document_id, name, utf16_offset, width, height, baseline, follows_end, position)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """
        ) { (statement) throws(DocumentStoreError) in
            try statement.bind(1, text: documentID)
            try Self.bindValues(of: attachment, to: statement, firstParameter: 2)
            try statement.bind(8, integer: position)
            try statement.run()
        }
    }

    /// Binds name, offset, width, height, baseline and follows-end to six consecutive parameters.
    private static func bindValues(
        of attachment: AttachmentRecord, to statement: SQLiteStatement, firstParameter: Int32
    ) throws(DocumentStoreError) {
        try statement.bind(firstParameter, text: attachment.name)
        try statement.bind(firstParameter + 1, integer: Int64(attachment.utf16Offset))
        try statement.bind(firstParameter + 2, double: attachment.width)
        try statement.bind(firstParameter + 3, double: attachment.height)
        try statement.bind(firstParameter + 4, double: attachment.baseline)
        try statement.bind(firstParameter + 5, integer: attachment.followsTextEnd ? 1 : 0)
    }

    // MARK: Reading

    private func locked<T>(_ body: () throws(DocumentStoreError) -> T) throws(DocumentStoreError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The document with its attachments; the caller holds the lock and a transaction.
    private func loadDocument(id: String) throws(DocumentStoreError) -> StoredDocument? {
        let found = try connection.withStatement(
            """
            SELECT id, text, language, segmentation, revision, updated_at_ms
            FROM documents WHERE id = ?1
            """
        ) { (statement) throws(DocumentStoreError) -> StoredDocument? in
            try statement.bind(1, text: id)
            return try statement.step() ? Self.document(from: statement) : nil
        }
        guard var document = found else { return nil }
        document.record.attachments = try connection.withStatement(
            """
            SELECT name, utf16_offset, width, height, baseline, follows_end
            FROM attachments WHERE document_id = ?1 ORDER BY position
            """
        ) { (statement) throws(DocumentStoreError) in
            try statement.bind(1, text: id)
            var attachments: [AttachmentRecord] = []
            while try statement.step() {
                attachments.append(Self.attachment(from: statement, firstColumn: 0))
            }
            return attachments
        }
        return document
    }

    /// A document without attachments from a row of
    /// `id, text, language, segmentation, revision, updated_at_ms`.
    private static func document(from statement: SQLiteStatement) -> StoredDocument {
        StoredDocument(
            record: DocumentRecord(
                id: statement.text(0), text: statement.blob(1),
                language: statement.optionalText(2), segmentation: statement.text(3)),
            revision: statement.integer(4), updatedAtMilliseconds: statement.integer(5))
    }

    /// An attachment from the columns `name, utf16_offset, width, height,
    /// baseline, follows_end` starting at `firstColumn`.
    private static func attachment(from statement: SQLiteStatement, firstColumn: Int32)
        -> AttachmentRecord
    {
        AttachmentRecord(
            name: statement.text(firstColumn),
            utf16Offset: Int(truncatingIfNeeded: statement.integer(firstColumn + 1)),
            width: statement.double(firstColumn + 2), height: statement.double(firstColumn + 3),
            baseline: statement.double(firstColumn + 4),
            followsTextEnd: statement.integer(firstColumn + 5) != 0)
    }

    // MARK: Opening

    /// Opens the database without writing to it. With a write-ahead log
    /// present (a crash left commits in it) SQLite reads it through a
    /// private, in-memory index; without one, `immutable=1` lets SQLite read
    /// a WAL-mode file in a directory where it cannot create its `-shm` file.
    private static func openReadOnly(_ directory: DataDirectory)
        throws(DocumentStoreError) -> SQLiteConnection
    {
        let hasLog = FileManager.default.fileExists(atPath: directory.writeAheadLogPath)
        return try SQLiteConnection(
            filename: fileURI(directory.databasePath, query: hasLog ? "mode=ro" : "immutable=1"),
            path: directory.databasePath, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
    }

    /// A `file:` URI for `path`, percent-encoding everything but unreserved
    /// characters and slashes (so `?`, `#` and `%` in a path are safe).
    private static func fileURI(_ path: String, query: String) -> String {
        let unreserved = Set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        var uri = "file:"
        for byte in path.utf8 {
            if unreserved.contains(byte) {
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                uri += String(format: "%%%02X", byte)
            }
        }
        return uri + "?" + query
    }

    /// Runs `PRAGMA quick_check`; anything but `ok` (or a file SQLite cannot
    /// read as a database at all) throws `.corrupt` naming the file.
    private static func checkIntegrity(_ connection: SQLiteConnection) throws(DocumentStoreError) {
        let report = try connection.textRows("PRAGMA quick_check")
        guard report == ["ok"] else {
            throw DocumentStoreError(
                .corrupt,
                "the database file \(connection.path) is corrupt: \(report.prefix(3).joined(separator: "; ")); move it aside or restore it from a backup")
        }
    }

    /// Sets WAL mode and full synchronisation, applies the size limit and
    /// runs missing migrations.
    private static func prepareForWriting(
        _ connection: SQLiteConnection, options: SQLiteStoreOptions
    ) throws(DocumentStoreError) {
        let mode = try connection.textRows("PRAGMA journal_mode = WAL")
        guard mode == ["wal"] else {
            throw DocumentStoreError(
                .failure,
                "cannot put \(connection.path) in WAL mode (SQLite kept \(mode.joined())); is the file system a network mount?")
        }
        try connection.execute(
            "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 2000")
        if let bytes = options.maximumDatabaseBytes {
            let pageSize = Int(try connection.textRows("PRAGMA page_size").first ?? "") ?? 4096
            _ = try connection.textRows("PRAGMA max_page_count = \(max(1, bytes / pageSize))")
        }
        try checkSchemaVersion(connection, canMigrate: true)
    }

    /// Reads `user_version` and runs the missing migrations in one
    /// transaction, or refuses a version this build cannot use.
    private static func checkSchemaVersion(_ connection: SQLiteConnection, canMigrate: Bool)
        throws(DocumentStoreError)
    {
        let version = Int(try connection.textRows("PRAGMA user_version").first ?? "") ?? 0
        if version > StoreSchema.currentVersion {
            throw DocumentStoreError(
                .incompatibleVersion,
                "the database file \(connection.path) has schema version \(version), newer than this Lectern's \(StoreSchema.currentVersion); run a newer lecternd")
        }
        guard version < StoreSchema.currentVersion else { return }
        guard canMigrate else {
            throw DocumentStoreError(
                .readOnly,
                "the database file \(connection.path) has schema version \(version) and needs upgrading to \(StoreSchema.currentVersion), which a read-only store cannot do")
        }
        try connection.transaction(immediate: true) { () throws(DocumentStoreError) in
            for migration in StoreSchema.migrations[version...] {
                try connection.execute(migration)
            }
            try connection.execute("PRAGMA user_version = \(StoreSchema.currentVersion)")
        }
    }
}
