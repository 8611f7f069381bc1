// CrashDurabilityTests.swift: kill -9 in the middle of a stream of puts loses
// nothing acknowledged and half-writes nothing.

import Foundation
import Testing
import LecternStore

/// What the helper process reported before it was killed.
struct HelperTranscript {
    /// The last acknowledged version of each document id.
    var acknowledged: [[UInt8]: DocumentRecord] = [:]
    /// The put that was announced but not acknowledged when the helper died, if any.
    var inFlight: DocumentRecord?
    /// How many acknowledgements were read.
    var acknowledgementCount = 0

    /// Reads the helper's `intent <json>` / `ack <id>` lines; a last line
    /// without its newline was cut by the kill and is ignored.
    mutating func read(_ output: Data) throws {
        let decoder = JSONDecoder()
        var lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()  // the part after the last newline: empty or cut short
        for line in lines {
            if line.starts(with: Array("intent ".utf8)) {
                inFlight = try decoder.decode(DocumentRecord.self, from: Data(line.dropFirst(7)))
            } else if line.starts(with: Array("ack ".utf8)) {
                let id = Array(line.dropFirst(4))
                let record = try #require(inFlight, "an ack without an intent")
                #expect(Array(record.id.utf8) == id)
                acknowledged[id] = record
                acknowledgementCount += 1
                inFlight = nil
            }
        }
    }
}

@Suite struct CrashDurabilityTests {
    /// The helper executable, built next to the test bundle by `swift build`.
    static let helperPath: String = {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: testBinary).deletingLastPathComponent()
            .appendingPathComponent("store-crash-helper").path
    }()

    /// Starts the helper on `directory`, lets it acknowledge `killAfter`
    /// puts, kills it with SIGKILL and adds what it printed to `transcript`.
    func runHelperAndKill(directory: String, killAfter: Int, into transcript: inout HelperTranscript)
        throws
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.helperPath)
        process.arguments = [directory, "100000"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let reader = pipe.fileHandleForReading
        var output = Data()
        var acknowledgements = 0
        var lineStart = 0
        while acknowledgements < killAfter {
            let chunk = reader.availableData
            if chunk.isEmpty { break }  // the helper exited early; the checks below will say why
            let scanFrom = output.count
            output.append(chunk)
            for index in scanFrom..<output.count where output[index] == UInt8(ascii: "\n") {
                if output[lineStart..<index].starts(with: Array("ack ".utf8)) { acknowledgements += 1 }
                lineStart = index + 1
            }
        }
        // A put takes about one fsync (milliseconds): a random pause lands
        // the kill inside one most of the time, not just between two. Keep
        // draining meanwhile, so that the helper is never blocked on a full pipe.
        let deadline = Date().addingTimeInterval(Double.random(in: 0...0.004))
        while Date() < deadline {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        output.append(reader.readDataToEndOfFile())
        #expect(process.terminationReason == .uncaughtSignal)
        try transcript.read(output)
    }

    @Test(.timeLimit(.minutes(2)))
    func killNineMidStreamLosesNothingAcknowledgedAndTearsNothing() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.helperPath))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var transcript = HelperTranscript()
        // Three crashes: each run recovers the previous one's log, then is killed too.
        for killAfter in [150, 260, 120] {
            let before = transcript.acknowledgementCount
            try runHelperAndKill(directory: directory.path, killAfter: killAfter, into: &transcript)
            #expect(transcript.acknowledgementCount - before >= killAfter)

            let store = try SQLiteDocumentStore(directory: directory.path)
            let documents = try store.loadAll()
            var present: [[UInt8]: DocumentRecord] = [:]
            for document in documents { present[Array(document.id.utf8)] = document.record }
            // Every stored document is exactly one whole version: the last
            // acknowledged one, or the one in flight when the helper died.
            for (id, record) in present {
                let acknowledged = transcript.acknowledged[id]
                #expect(record == acknowledged || record == transcript.inFlight,
                        "document \(record.id) is not a version the helper wrote whole")
            }
            // Every acknowledged id is present (ids are never deleted here).
            for (id, record) in transcript.acknowledged {
                #expect(present[id] != nil, "acknowledged document \(record.id) is missing")
            }
            // The in-flight put either committed whole or not at all; from
            // now on, what the store holds for that id is the acknowledged state.
            if let inFlight = transcript.inFlight, present[Array(inFlight.id.utf8)] == inFlight {
                transcript.acknowledged[Array(inFlight.id.utf8)] = inFlight
            }
            transcript.inFlight = nil
        }
    }

    @Test(
        .timeLimit(.minutes(1)),
        .enabled(if: FileSystemConditions.canMakeImmutable, "needs chattr +i (root, ext4-like file system)"))
    func afterACrashAnImmutableDirectoryStillReadsTheCommitsInTheLog() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var transcript = HelperTranscript()
        try runHelperAndKill(directory: directory.path, killAfter: 50, into: &transcript)
        // The kill left the last commits in lectern.db-wal, not yet in lectern.db.
        let files = ["lectern.db", "lectern.db-wal", "lectern.db-shm"].map(directory.appending)
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        FileSystemConditions.setImmutable(true, [directory.path] + files)
        defer { FileSystemConditions.setImmutable(false, [directory.path] + files) }

        let store = try SQLiteDocumentStore(directory: directory.path)
        #expect(store.readOnlyReason != nil)
        for (id, record) in transcript.acknowledged {
            let stored = try store.load(id: String(decoding: id, as: UTF8.self))?.record
            #expect(stored == record || stored == transcript.inFlight)
        }
        let refusal = #expect(throws: DocumentStoreError.self) { try store.delete(id: "doc-1") }
        #expect(refusal?.code == .readOnly)
    }
}
