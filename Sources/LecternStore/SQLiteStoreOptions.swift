// SQLiteStoreOptions.swift: how a SQLiteDocumentStore opens its database.

/// How ``SQLiteDocumentStore`` opens its database.
public struct SQLiteStoreOptions: Hashable, Sendable {
    /// Whether the store may write.
    public enum Access: Hashable, Sendable {
        /// Create the directory and database as needed and write; fall back
        /// to read-only (with ``SQLiteDocumentStore/readOnlyReason`` set) if
        /// the directory or database turns out not to be writable.
        case readWrite
        /// Never write: reads work, every write throws `.readOnly`. The
        /// database must already exist.
        case readOnly
    }

    /// Whether the store may write. Default: `.readWrite`.
    public var access: Access
    /// An upper bound on the database file's size, in bytes, enforced by
    /// SQLite's `max_page_count` (rounded down to whole pages); a write that
    /// would cross it fails with `.full` and changes nothing. `nil` (the
    /// default) means no limit but the disk's. A limit below the file's
    /// current size is raised to the current size by SQLite.
    public var maximumDatabaseBytes: Int?

    /// Creates options; the defaults write, with no size limit.
    public init(access: Access = .readWrite, maximumDatabaseBytes: Int? = nil) {
        self.access = access
        self.maximumDatabaseBytes = maximumDatabaseBytes
    }
}
