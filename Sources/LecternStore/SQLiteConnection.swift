// SQLiteConnection.swift: one SQLite connection, its statement cache and its error mapping.

import CSQLite
import Foundation

/// One SQLite database connection with a cache of prepared statements.
///
/// Threading rule: the connection is opened with `SQLITE_OPEN_NOMUTEX`
/// ("multi-thread" mode): it may be used from any thread, but never from two
/// threads at once. ``SQLiteDocumentStore`` guarantees that with its own lock,
/// which also guards this cache, so SQLite's per-connection mutex would only
/// be a second, redundant lock.
final class SQLiteConnection {
    let handle: OpaquePointer
    /// The database file, for error messages.
    let path: String
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens `filename` (a path, or a `file:` URI when `flags` include
    /// `SQLITE_OPEN_URI`). `path` is the plain file path used in messages.
    init(filename: String, path: String, flags: Int32) throws(DocumentStoreError) {
        self.path = path
        var pointer: OpaquePointer?
        let code = sqlite3_open_v2(filename, &pointer, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard let pointer else {
            throw DocumentStoreError(
                .failure, "cannot open \(path): SQLite could not allocate a connection",
                sqliteResultCode: code)
        }
        handle = pointer
        sqlite3_extended_result_codes(handle, 1)
        if code != SQLITE_OK {
            let error = self.error(code, "opening the database")
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        statements.removeAll()  // finalize every statement before closing
        sqlite3_close_v2(handle)
    }

    /// Runs `body` with the cached prepared statement for `sql` (preparing it
    /// on first use) and resets the statement afterwards, whatever happens.
    func withStatement<T>(
        _ sql: String, _ body: (SQLiteStatement) throws(DocumentStoreError) -> T
    ) throws(DocumentStoreError) -> T {
        let statement = try prepared(sql)
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs one or more SQL statements that take no parameters (pragmas, DDL,
    /// `BEGIN`/`COMMIT`), uncached.
    func execute(_ sql: String) throws(DocumentStoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        let text = message.map { String(cString: $0) }
        sqlite3_free(message)
        if code != SQLITE_OK { throw error(code, "running \(sql)", detail: text) }
    }

    /// The first column of every row `sql` returns, as text (for pragmas).
    func textRows(_ sql: String) throws(DocumentStoreError) -> [String] {
        try withStatement(sql) { (statement) throws(DocumentStoreError) in
            var rows: [String] = []
            while try statement.step() { rows.append(statement.text(0)) }
            return rows
        }
    }

    /// Runs `body` in a transaction and commits it; rolls back if `body` or
    /// the commit throws, so a failed write leaves nothing behind.
    ///
    /// - Parameter immediate: take the write lock at the start (for writes),
    ///   instead of a deferred read transaction.
    func transaction<T>(
        immediate: Bool, _ body: () throws(DocumentStoreError) -> T
    ) throws(DocumentStoreError) -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // SQLite may already have rolled back (e.g. after SQLITE_FULL).
            if sqlite3_get_autocommit(handle) == 0 {
                sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            }
            throw error
        }
    }

    /// Whether SQLite opened the main database read-only (it falls back to
    /// read-only silently when the file cannot be opened for writing).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Translates a SQLite result code into a ``DocumentStoreError`` with a
    /// sentence naming the database file.
    ///
    /// I/O errors and "cannot open" are classified by the operating-system
    /// error behind them: `EROFS`, `EACCES` and `EPERM` (a read-only mount,
    /// an immutable file, permissions) mean read-only; `ENOSPC` and `EDQUOT`
    /// mean full. `SQLITE_TOOBIG` (a text above SQLite's length limit) is the
    /// caller's error, `.invalidArgument`.
    func error(_ code: Int32, _ doing: String, detail: String? = nil) -> DocumentStoreError {
        let extended = sqlite3_extended_errcode(handle)
        let resultCode = extended & 0xff == code & 0xff ? extended : code
        let sqliteMessage = detail ?? String(cString: sqlite3_errmsg(handle))
        let errno = sqlite3_system_errno(handle)
        let reason = "\(sqliteMessage) (SQLite code \(resultCode)\(errno != 0 ? ", \(String(cString: strerror(errno)))" : ""))"
        switch Self.classify(resultCode: resultCode, systemErrno: errno) {
        case .readOnly:
            return DocumentStoreError(
                .readOnly,
                "cannot write to \(path): the database or its directory is read-only: \(reason); reads still work",
                sqliteResultCode: resultCode)
        case .full:
            return DocumentStoreError(
                .full,
                "cannot write to \(path): the disk or the store's size limit is full: \(reason); nothing of this write was kept, reads still work",
                sqliteResultCode: resultCode)
        case .corrupt:
            return DocumentStoreError(
                .corrupt,
                "the database file \(path) is corrupt or not a Lectern database: \(reason); move it aside or restore it from a backup",
                sqliteResultCode: resultCode)
        case .invalidArgument:
            return DocumentStoreError(
                .invalidArgument, "\(doing) on \(path) was refused: \(reason)",
                sqliteResultCode: resultCode)
        default:
            return DocumentStoreError(
                .failure, "\(doing) on \(path) failed: \(reason)", sqliteResultCode: resultCode)
        }
    }

    /// The store error code for a SQLite result code and the `errno` behind it.
    static func classify(resultCode: Int32, systemErrno: Int32) -> DocumentStoreError.Code {
        switch resultCode & 0xff {
        case SQLITE_READONLY, SQLITE_PERM: return .readOnly
        case SQLITE_FULL: return .full
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt
        case SQLITE_TOOBIG: return .invalidArgument
        case SQLITE_IOERR, SQLITE_CANTOPEN:
            switch systemErrno {
            case EROFS, EACCES, EPERM: return .readOnly
            case ENOSPC, EDQUOT: return .full
            default: return .failure
            }
        default: return .failure
        }
    }

    private func prepared(_ sql: String) throws(DocumentStoreError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(
            handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else {
            throw error(code == SQLITE_OK ? SQLITE_MISUSE : code, "preparing \(sql)")
        }
        let statement = SQLiteStatement(handle: pointer, connection: self)
        statements[sql] = statement
        return statement
    }
}

/// A connection must not be used from two threads at once; only its owner's
/// lock makes sharing it safe.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}
