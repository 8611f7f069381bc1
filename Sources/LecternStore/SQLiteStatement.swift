// SQLiteStatement.swift: one prepared statement, bound and stepped.

import CSQLite

/// SQLite's `SQLITE_TRANSIENT`: copy bound bytes before the call returns.
/// (The C macro is a cast of -1 to a function pointer, which Swift does not import.)
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement owned by a ``SQLiteConnection``'s cache. Use it
/// through ``SQLiteConnection/withStatement(_:_:)``, which resets it after
/// each use so that no read transaction stays open.
///
/// Parameter and column indexes are SQLite's: parameters count from 1,
/// columns from 0.
final class SQLiteStatement {
    let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `value` as TEXT, exactly as its UTF-8 bytes (interior NULs
    /// included). `withCString` always gives a valid pointer, so an empty
    /// string binds as empty TEXT, not NULL.
    func bind(_ index: Int32, text value: String) throws(DocumentStoreError) {
        let length = UInt64(value.utf8.count)
        let code = value.withCString { pointer in
            sqlite3_bind_text64(
                handle, index, pointer, length, transientDestructor, UInt8(SQLITE_UTF8))
        }
        try check(code, "binding a text parameter")
    }

    /// Binds `value` as TEXT, or NULL when it is `nil`.
    func bind(_ index: Int32, optionalText value: String?) throws(DocumentStoreError) {
        guard let value else {
            try check(sqlite3_bind_null(handle, index), "binding a NULL parameter")
            return
        }
        try bind(index, text: value)
    }

    /// Binds `bytes` as a BLOB. An empty array is bound as a zero-length
    /// blob, not NULL (which is what a nil pointer would give). Values above
    /// SQLite's length limit (1,000,000,000 bytes by default) fail with
    /// `SQLITE_TOOBIG`, which is reported as `.invalidArgument`.
    func bind(_ index: Int32, blob bytes: [UInt8]) throws(DocumentStoreError) {
        let code = bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob64(
                handle, index, base, UInt64(buffer.count), transientDestructor)
        }
        try check(code, "binding a blob parameter")
    }

    /// Binds a 64-bit integer.
    func bind(_ index: Int32, integer value: Int64) throws(DocumentStoreError) {
        try check(sqlite3_bind_int64(handle, index, value), "binding an integer parameter")
    }

    /// Binds a double (callers have checked that it is finite).
    func bind(_ index: Int32, double value: Double) throws(DocumentStoreError) {
        try check(sqlite3_bind_double(handle, index, value), "binding a real parameter")
    }

    /// Advances to the next row.
    ///
    /// - Returns: `true` if a row is available, `false` when the statement is done.
    func step() throws(DocumentStoreError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code, "running \(sqlText)")
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(DocumentStoreError) {
        while try step() {}
    }

    /// Resets the statement and clears its bindings, ready for the next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Column `index` of the current row as TEXT, or `nil` if it is NULL.
    /// Bytes that are not valid UTF-8 (a tampered file) decode with U+FFFD.
    func optionalText(_ index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL,
            let pointer = sqlite3_column_text(handle, index)
        else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Column `index` of the current row as TEXT; NULL reads as the empty string.
    func text(_ index: Int32) -> String { optionalText(index) ?? "" }

    /// Column `index` of the current row as bytes; NULL and a zero-length blob read as `[]`.
    func blob(_ index: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Column `index` of the current row as a 64-bit integer.
    func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` of the current row as a double.
    func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    private var sqlText: String {
        sqlite3_sql(handle).map { String(cString: $0) } ?? "a statement"
    }

    private func check(_ code: Int32, _ doing: String) throws(DocumentStoreError) {
        if code != SQLITE_OK { throw connection.error(code, doing) }
    }
}

/// A statement belongs to its connection and shares its threading rule.
@available(*, unavailable)
extension SQLiteStatement: Sendable {}
