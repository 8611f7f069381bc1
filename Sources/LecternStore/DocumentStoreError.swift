// DocumentStoreError.swift: why a store operation failed, as a code and a sentence.

/// A failed store operation: a ``Code`` that programs switch on (the daemon
/// maps it to a protocol `ERR` code) and a sentence for people, which names
/// the file involved and carries SQLite's own message where there is one.
public struct DocumentStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// Writes are impossible: the data directory or database file is
        /// read-only (a read-only mount, an immutable file, missing
        /// permissions, or a store opened read-only). Reads still work.
        case readOnly = "READONLY"
        /// The disk (or the store's configured size limit) is full. The
        /// failed write left nothing behind; reads still work.
        case full = "FULL"
        /// The database file is damaged or is not a SQLite database at all.
        /// Reported when the store opens, or if damage is met later.
        case corrupt = "CORRUPT"
        /// The database was written by a newer Lectern whose schema this
        /// version does not know.
        case incompatibleVersion = "VERSION"
        /// The named document or attachment does not exist.
        case notFound = "NOTFOUND"
        /// The caller passed something no store accepts (an empty id, a NaN width).
        case invalidArgument = "INVALID"
        /// Another store (another lecternd, or another store in this
        /// process) has the data directory open: it holds `lectern.lock`.
        /// The message names the holder's PID.
        case locked = "LOCKED"
        /// Any other failure (an I/O error, a lock held by another process);
        /// the message carries SQLite's explanation.
        case failure = "STORE"
    }

    /// What kind of failure this is.
    public let code: Code
    /// One or two sentences for people, naming the file involved.
    public let message: String
    /// SQLite's extended result code, when the failure came from SQLite.
    public let sqliteResultCode: Int32?

    /// Creates an error from its parts.
    public init(_ code: Code, _ message: String, sqliteResultCode: Int32? = nil) {
        self.code = code
        self.message = message
        self.sqliteResultCode = sqliteResultCode
    }

    /// The code word followed by the message, as an `ERR` line would show it.
    public var description: String { "\(code.rawValue) \(message)" }
}
