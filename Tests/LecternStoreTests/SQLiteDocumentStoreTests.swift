// SQLiteDocumentStoreTests.swift: persistence, schema versioning and error
// classification of the SQLite store.

import CSQLite
import Foundation
import Testing
@testable import LecternStore

/// Runs SQL against a database file directly, as another program would.
func executeDirectly(_ sql: String, on path: String) throws {
    var handle: OpaquePointer?
    defer { sqlite3_close_v2(handle) }
    guard sqlite3_open(path, &handle) == SQLITE_OK,
        sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK
    else { throw DocumentStoreError(.failure, "direct SQL failed on \(path)") }
}

@Suite struct SQLiteDocumentStoreTests {
    @Test func documentsSurviveClosingAndReopening() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.appending("nested/var")  // parents are created too
        let written: [StoredDocument] = try {
            let store = try SQLiteDocumentStore(directory: data)
            return try (0..<20).map { try store.put(sampleDocument(id: "doc-\($0)", text: "Text \($0).")) }
        }()
        let reopened = try SQLiteDocumentStore(directory: data)
        #expect(reopened.readOnlyReason == nil)
        #expect(try reopened.loadAll() == written.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) })
        // The revision counter is persistent too: no revision is handed out twice.
        let next = try reopened.put(sampleDocument(id: "later"))
        #expect(next.revision > written.map(\.revision).max() ?? 0)
    }

    @Test func aLargeTextRoundTripsExactly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var record = sampleDocument()
        record.text = (0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        _ = try SQLiteDocumentStore(directory: directory.path).put(record)
        #expect(try SQLiteDocumentStore(directory: directory.path).load(id: "alice")?.record == record)
    }

    @Test func theDatabaseIsInWALModeWithASchemaVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteDocumentStore(directory: directory.path)
        #expect(store.databasePath == directory.appending("lectern.db"))
        let connection = try SQLiteConnection(
            filename: store.databasePath, path: store.databasePath, flags: SQLITE_OPEN_READONLY)
        #expect(try connection.textRows("PRAGMA journal_mode") == ["wal"])
        #expect(try connection.textRows("PRAGMA user_version") == ["\(StoreSchema.currentVersion)"])
    }

    @Test func aDatabaseFromANewerLecternIsRefusedNotMisread() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try SQLiteDocumentStore(directory: directory.path)
        try executeDirectly(
            "PRAGMA user_version = \(StoreSchema.currentVersion + 1)",
            on: directory.appending("lectern.db"))
        let refusal = #expect(throws: DocumentStoreError.self) {
            try SQLiteDocumentStore(directory: directory.path)
        }
        #expect(refusal?.code == .incompatibleVersion)
        #expect(refusal?.message.contains("lectern.db") == true)
    }

    @Test func writesAreRefusedWhenOpenedReadOnlyWhileReadsWork() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let stored = try SQLiteDocumentStore(directory: directory.path).put(sampleDocument())
        let store = try SQLiteDocumentStore(
            directory: directory.path, options: SQLiteStoreOptions(access: .readOnly))
        #expect(store.readOnlyReason != nil)
        #expect(try store.loadAll() == [stored])
        #expect(try store.load(id: "alice") == stored)
        let refusals: [() throws -> Void] = [
            { _ = try store.put(sampleDocument(id: "bob")) },
            { _ = try store.delete(id: "alice") },
            { _ = try store.removeAttachment(named: "clock", documentID: "alice") },
        ]
        for write in refusals {
            let refusal = #expect(throws: DocumentStoreError.self) { try write() }
            #expect(refusal?.code == .readOnly)
        }
        #expect(try store.load(id: "alice") == stored)
    }

    @Test func readOnlyAccessNeedsAnExistingDatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let refusal = #expect(throws: DocumentStoreError.self) {
            try SQLiteDocumentStore(
                directory: directory.path, options: SQLiteStoreOptions(access: .readOnly))
        }
        #expect(refusal?.code == .readOnly)
        #expect(refusal?.message.contains("no database") == true)
    }

    @Test func sqliteResultCodesAreClassifiedByTheErrnoBehindThem() {
        #expect(SQLiteConnection.classify(resultCode: SQLITE_READONLY, systemErrno: 0) == .readOnly)
        #expect(SQLiteConnection.classify(resultCode: SQLITE_FULL, systemErrno: 0) == .full)
        #expect(SQLiteConnection.classify(resultCode: SQLITE_NOTADB, systemErrno: 0) == .corrupt)
        #expect(SQLiteConnection.classify(resultCode: SQLITE_CORRUPT, systemErrno: 0) == .corrupt)
        #expect(SQLiteConnection.classify(resultCode: SQLITE_IOERR | (3 << 8), systemErrno: EROFS) == .readOnly)
        #expect(SQLiteConnection.classify(resultCode: SQLITE_IOERR | (3 << 8), systemErrno: ENOSPC) == .full)
        #expect(SQLiteConnection.classify(resultCode: SQLITE_CANTOPEN, systemErrno: EACCES) == .readOnly)
        #expect(SQLiteConnection.classify(resultCode: SQLITE_IOERR, systemErrno: EIO) == .failure)
        #expect(SQLiteConnection.classify(resultCode: SQLITE_BUSY, systemErrno: 0) == .failure)
        #expect(SQLiteConnection.classify(resultCode: SQLITE_TOOBIG, systemErrno: 0) == .invalidArgument)
    }

    @Test func pathsWithURICharactersOpenReadOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.appending("odd ?#% name")
        let stored = try SQLiteDocumentStore(directory: data).put(sampleDocument())
        let store = try SQLiteDocumentStore(
            directory: data, options: SQLiteStoreOptions(access: .readOnly))
        #expect(try store.loadAll() == [stored])
    }
}

@Suite struct SQLiteDocumentStoreThreadingTests {
    @Test func callsFromManyThreadsAtOnceAreSerializedSafely() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteDocumentStore(directory: directory.path)
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<25 {
                do {
                    let id = "thread-\(thread)-\(index)"
                    let stored = try store.put(sampleDocument(id: id, text: id))
                    if try store.load(id: id) != stored { failures.increment() }
                    _ = try store.loadAll()
                } catch {
                    failures.increment()
                }
            }
        }
        #expect(failures.value == 0)
        let documents = try store.loadAll()
        #expect(documents.count == 100)
        #expect(Set(documents.map(\.revision)).count == 100)
    }
}
