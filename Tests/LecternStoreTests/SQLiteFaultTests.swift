// SQLiteFaultTests.swift: corrupt files, full disks and read-only directories
// give typed errors with clear messages, and reads keep working.

import Foundation
import Testing
import LecternStore

/// Puts documents of about `size` bytes until the store refuses one.
///
/// - Returns: the documents acknowledged, and the error that ended the run.
func fillUntilRefused(_ store: SQLiteDocumentStore, size: Int, limit: Int = 10_000)
    -> (stored: [StoredDocument], refusal: DocumentStoreError?)
{
    var stored: [StoredDocument] = []
    for index in 0..<limit {
        let text = String(repeating: "Fill \(index). ", count: size / 8)
        do {
            stored.append(try store.put(sampleDocument(id: "fill-\(index)", text: text)))
        } catch {
            return (stored, error)
        }
    }
    return (stored, nil)
}

@Suite struct SQLiteFaultTests {
    @Test func aFileThatIsNotADatabaseIsReportedAsCorruptNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("lectern.db")
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        let refusal = #expect(throws: DocumentStoreError.self) {
            try SQLiteDocumentStore(directory: directory.path)
        }
        #expect(refusal?.code == .corrupt)
        #expect(refusal?.message.contains(path) == true)
    }

    @Test func damagedPagesAreFoundByTheIntegrityCheckAtOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try SQLiteDocumentStore(directory: directory.path)
            for index in 0..<200 {
                _ = try store.put(sampleDocument(id: "doc-\(index)", text: String(repeating: "x", count: 900)))
            }
        }  // closing checkpoints the log into lectern.db
        let path = directory.appending("lectern.db")
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        try file.seek(toOffset: 4096 * 3)
        try file.write(contentsOf: Data((0..<(4096 * 4)).map { UInt8(truncatingIfNeeded: $0 &* 37) }))
        try file.close()
        let refusal = #expect(throws: DocumentStoreError.self) {
            try SQLiteDocumentStore(directory: directory.path)
        }
        #expect(refusal?.code == .corrupt)
        #expect(refusal?.message.contains(path) == true)
    }

    @Test func aFullStoreRefusesWritesWithFullAndKeepsEverythingElse() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteDocumentStore(
            directory: directory.path, options: SQLiteStoreOptions(maximumDatabaseBytes: 96 * 1024))
        let original = try store.put(sampleDocument(id: "keep"))
        let (stored, refusal) = fillUntilRefused(store, size: 3000)
        #expect(refusal?.code == .full)
        #expect(refusal?.message.contains("full") == true)
        #expect(stored.count > 5)
        // Replacing a document with one that does not fit keeps the old version whole.
        let tooBig = #expect(throws: DocumentStoreError.self) {
            try store.put(sampleDocument(id: "keep", text: String(repeating: "big ", count: 50_000)))
        }
        #expect(tooBig?.code == .full)
        #expect(try store.load(id: "keep") == original)
        // Several documents in one transaction: the one that does not fit
        // takes the one that would have fitted with it (MOVE's target and source).
        let pair = #expect(throws: DocumentStoreError.self) {
            try store.put(all: [
                sampleDocument(id: "small", text: "fits"),
                sampleDocument(id: "keep", text: String(repeating: "big ", count: 50_000)),
            ])
        }
        #expect(pair?.code == .full)
        #expect(try store.load(id: "small") == nil)
        #expect(try store.load(id: "keep") == original)
        // Reads keep working and see exactly the acknowledged writes.
        #expect(try store.loadAll().count == stored.count + 1)
        // Deleting frees room (the write path recovers without reopening).
        #expect(try store.delete(id: "fill-0"))
        _ = try store.put(sampleDocument(id: "after", text: "small"))
    }

    @Test(.enabled(if: FileSystemConditions.canMountTmpfs, "needs root with CAP_SYS_ADMIN to mount a tmpfs"))
    func aRealFullDiskGivesFull() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try #require(run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", directory.path]))
        defer { run("/usr/bin/umount", [directory.path]) }
        do {  // the store closes at the end of this block, before the unmount
            let store = try SQLiteDocumentStore(directory: directory.path)
            let (stored, refusal) = fillUntilRefused(store, size: 3000)
            #expect(refusal?.code == .full)
            #expect(stored.count > 5)
            #expect(try store.loadAll().count == stored.count)
            #expect(try store.load(id: "fill-0") == stored.first)
        }
    }

    @Test(.enabled(if: FileSystemConditions.canMakeImmutable, "needs chattr +i (root, ext4-like file system)"))
    func anImmutableDataDirectoryOpensReadOnlyAndReadsWork() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.appending("var")
        let stored = try SQLiteDocumentStore(directory: data).put(sampleDocument())
        let database = data + "/lectern.db"
        FileSystemConditions.setImmutable(true, [data, database])
        defer { FileSystemConditions.setImmutable(false, [data, database]) }
        let store = try SQLiteDocumentStore(directory: data)
        #expect(store.readOnlyReason?.contains(data) == true)
        #expect(try store.loadAll() == [stored])
        let refusal = #expect(throws: DocumentStoreError.self) {
            try store.put(sampleDocument(id: "bob"))
        }
        #expect(refusal?.code == .readOnly)
        #expect(refusal?.message.contains("read") == true)
    }

    @Test(.enabled(if: FileSystemConditions.canMakeImmutable, "needs chattr +i (root, ext4-like file system)"))
    func anImmutableDirectoryWithoutADatabaseCannotOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        FileSystemConditions.setImmutable(true, [directory.path])
        defer { FileSystemConditions.setImmutable(false, [directory.path]) }
        let refusal = #expect(throws: DocumentStoreError.self) {
            try SQLiteDocumentStore(directory: directory.path)
        }
        #expect(refusal?.code == .readOnly)
        #expect(refusal?.message.contains(directory.path) == true)
    }
}
