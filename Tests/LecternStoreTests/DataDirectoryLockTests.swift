// DataDirectoryLockTests.swift: one store per data directory, whichever
// process opens it; a crashed holder leaves no lock behind.

import Foundation
import Testing
@testable import LecternStore

@Suite struct DataDirectoryLockTests {
    @Test func aSecondStoreOnTheSameDirectoryIsRefusedUntilTheFirstCloses() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let first = try SQLiteDocumentStore(directory: directory.path)
            #expect(first.holdsDirectoryLock)
            _ = try first.put(sampleDocument())
            let refusal = #expect(throws: DocumentStoreError.self) {
                try SQLiteDocumentStore(directory: directory.path)
            }
            #expect(refusal?.code == .locked)
            #expect(refusal?.message.contains(directory.path) == true)
            // The lock file names its holder.
            let pid = try String(contentsOfFile: directory.appending("lectern.lock"), encoding: .utf8)
            #expect(pid == "\(getpid())\n")
            // A read-only look does not need the lock and sees the committed writes.
            let reader = try SQLiteDocumentStore(
                directory: directory.path, options: SQLiteStoreOptions(access: .readOnly))
            #expect(!reader.holdsDirectoryLock)
            #expect(try reader.load(id: "alice") != nil)
        }
        // Closed: the directory is free again.
        let next = try SQLiteDocumentStore(directory: directory.path)
        #expect(try next.load(id: "alice") != nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func anotherProcessHoldingTheDirectoryIsNamedAndItsCrashFreesIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let helper = Process()
        helper.executableURL = URL(fileURLWithPath: CrashDurabilityTests.helperPath)
        helper.arguments = [directory.path, "100000"]
        let pipe = Pipe()
        helper.standardOutput = pipe
        try helper.run()
        // Its first acknowledged put means it holds the store (and so the lock).
        var output = Data()
        while !String(decoding: output, as: UTF8.self).contains("ack ") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
        }
        let refusal = #expect(throws: DocumentStoreError.self) {
            try SQLiteDocumentStore(directory: directory.path)
        }
        #expect(refusal?.code == .locked)
        #expect(refusal?.message.contains("pid \(helper.processIdentifier)") == true)
        // kill -9: no clean-up ran, yet the kernel dropped the lock.
        kill(helper.processIdentifier, SIGKILL)
        helper.waitUntilExit()
        let store = try SQLiteDocumentStore(directory: directory.path)
        #expect(store.holdsDirectoryLock)
        #expect(try !store.loadAll().isEmpty)
        #expect(try String(contentsOfFile: directory.appending("lectern.lock"), encoding: .utf8) == "\(getpid())\n")
    }

    @Test func aSymbolicLinkAtTheLockPathIsNotFollowed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.appending("precious")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        let data = directory.appending("var")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: data + "/lectern.lock", withDestinationPath: target)
        let refusal = #expect(throws: DocumentStoreError.self) { try SQLiteDocumentStore(directory: data) }
        #expect(refusal?.message.contains("lectern.lock") == true)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
    }

    @Test(.enabled(if: FileSystemConditions.canMakeImmutable, "needs chattr +i (root, ext4-like file system)"))
    func aReadOnlyDirectoryIsLockedThroughItsExistingLockFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.appending("var")
        _ = try SQLiteDocumentStore(directory: data).put(sampleDocument())
        let files = [data, data + "/lectern.db", data + "/lectern.lock"]
        FileSystemConditions.setImmutable(true, files)
        defer { FileSystemConditions.setImmutable(false, files) }
        let first = try SQLiteDocumentStore(directory: data)
        #expect(first.readOnlyReason != nil)
        #expect(first.holdsDirectoryLock)
        let refusal = #expect(throws: DocumentStoreError.self) { try SQLiteDocumentStore(directory: data) }
        #expect(refusal?.code == .locked)
        #expect(try first.loadAll().count == 1)
    }
}
