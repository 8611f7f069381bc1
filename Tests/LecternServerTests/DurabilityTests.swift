// DurabilityTests.swift: documents survive restarts and kill -9; a read-only
// or full disk refuses writes with a clear error while reads keep working.

import Foundation
import Testing

@Suite(.serialized) struct DurabilityTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-data-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @discardableResult
    private func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func aRestartKeepsDocumentsAndAttachments() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "Kept across restarts. 한국어 문장입니다. 👍🏽"
        do {
            let daemon = try Daemon(["--data-dir", directory.path])
            let client = try daemon.connect()
            #expect(try client.request("PUT kept lang=ko \"\(text)\"").last?.hasPrefix("OK PUT") == true)
            #expect(try client.request("ATTACH kept anim at=end 30 30").last?.hasPrefix("OK ATTACH") == true)
            #expect(try client.request("ATTACH kept pin at=4 10 10 -2").last?.hasPrefix("OK ATTACH") == true)
            #expect(daemon.stop() == 0)
        }
        let daemon = try Daemon(["--data-dir", directory.path])
        #expect(daemon.log.contains("documents=1"))
        let client = try daemon.connect()
        let reply = try client.request("GET kept")
        #expect(reply.dropFirst().first == text)
        #expect(reply.last?.contains("lang=ko") == true)
        #expect(reply.last?.contains("attachments=2") == true)
        #expect(try client.request("VIEW kept width=600").last?.hasPrefix("OK VIEW") == true)
        // The end-glued attachment still follows the end after an edit.
        #expect(try client.request("PUT kept \"Shorter.\"").last?.hasPrefix("OK PUT") == true)
        #expect(try client.request("DETACH kept pin") == ["OK DETACH name=pin"])
        #expect(try client.request("ATTACH kept anim at=end 30 30").last?.hasPrefix("OK ATTACH name=anim offset=8") == true)
    }

    @Test func killNineLosesNothingAcknowledged() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var acknowledged: [String: String] = [:]
        for round in 0..<5 {
            let daemon = try Daemon(["--data-dir", directory.path, "--log-level", "warn"])
            let client = try daemon.connect()
            // Pipeline PUTs, read acknowledgements as they come, kill mid-stream.
            let total = 400
            var sent: [String: String] = [:]
            var textsSent: [String: Set<String>] = [:]
            for n in 0..<total {
                let id = "doc\(n % 50)"
                let text = "Round \(round) write \(n). " + String(repeating: "Padding sentence \(n). ", count: n % 7 + 1)
                sent["@\(round)-\(n)"] = id + "\u{0}" + text
                textsSent[id, default: []].insert(text)
                client.send("@\(round)-\(n) PUT \(id) {\(text.utf8.count)}\n\(text)\n")
            }
            var replies = 0
            while replies < total / 3, let line = try client.readLine() {
                replies += 1
                let tag = String(line.prefix { $0 != " " })
                guard line.hasPrefix(tag + " OK PUT"), let entry = sent[tag] else { continue }
                let parts = entry.split(separator: "\u{0}", maxSplits: 1).map(String.init)
                acknowledged[parts[0]] = parts[1]
            }
            kill(daemon.process.processIdentifier, SIGKILL)
            daemon.process.waitUntilExit()
            // Anything acknowledged after our last read may also be stored; a
            // later write of the same id may be stored too. Both are fine:
            // check only what was acknowledged and not overwritten since.
            let restarted = try Daemon(["--data-dir", directory.path, "--log-level", "warn"])
            let reader = try restarted.connect()
            for (id, text) in acknowledged {
                let reply = try reader.request("GET \(id)")
                #expect(reply.last?.hasPrefix("OK GET id=\(id)") == true)
                let stored = reply.count == 3 ? reply[1] : ""
                // The acknowledged text, or a complete later write of the same id.
                #expect(stored == text || textsSent[id, default: []].contains(stored), "document \(id)")
                acknowledged[id] = stored
            }
            #expect(restarted.stop() == 0)
        }
        #expect(acknowledged.count > 10)
    }

    @Test func aReadOnlyDataDirectoryRefusesWritesAndServesReads() throws {
        let directory = try temporaryDirectory()
        defer {
            run(["chattr", "-R", "-i", directory.path])
            try? FileManager.default.removeItem(at: directory)
        }
        do {
            let daemon = try Daemon(["--data-dir", directory.path])
            #expect(try daemon.connect().request("PUT keep \"Still readable.\"").last?.hasPrefix("OK PUT") == true)
            #expect(daemon.stop() == 0)
        }
        // Immutable: even root cannot write (permission bits would not stop root).
        #expect(run(["chattr", "-R", "+i", directory.path]) == 0)
        let daemon = try Daemon(["--data-dir", directory.path])
        #expect(daemon.log.contains("event=store_read_only"))
        let client = try daemon.connect()
        #expect(try client.request("GET keep").dropFirst().first == "Still readable.")
        let refused = try client.request("PUT new \"Nope.\"")
        #expect(refused.last?.hasPrefix("ERR READONLY the store is read-only") == true)
        #expect(try client.request("LIST").last == "OK LIST 1")
    }

    @Test func aFullDiskRefusesWritesAndServesReads() throws {
        let directory = try temporaryDirectory()
        #expect(run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", directory.path]) == 0)
        defer {
            run(["umount", directory.path])
            try? FileManager.default.removeItem(at: directory)
        }
        let daemon = try Daemon(["--data-dir", directory.path, "--log-level", "warn"])
        let client = try daemon.connect()
        #expect(try client.request("PUT first \"Written before the disk filled.\"").last?.hasPrefix("OK PUT") == true)
        let chunk = String(repeating: "Filling the disk one sentence at a time. ", count: 1000)  // ~41 KB
        var full: String?
        for n in 0..<100 where full == nil {
            let reply = try client.request("PUT fill\(n) \"\(chunk)\"").last ?? ""
            if !reply.hasPrefix("OK PUT") { full = reply }
        }
        #expect(full?.hasPrefix("ERR FULL the store's disk is full") == true)
        #expect(try client.request("GET first").dropFirst().first == "Written before the disk filled.")
        #expect(try client.request("PING") == ["OK PONG"])
    }

    @Test func aCorruptDatabaseIsReportedAtStartUp() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(repeating: 0x5A, count: 8192).write(to: directory.appendingPathComponent("lectern.db"))
        #expect(throws: Daemon.StartFailure.self) { try Daemon(["--data-dir", directory.path]) }
        // Started by hand to read the message: a clear line, exit status 1, no crash.
        let process = Process()
        process.executableURL = Daemon.executable
        process.arguments = ["--port", "0", "--data-dir", directory.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(message.contains("event=start_failed"))
        #expect(message.contains("lectern.db"))
        #expect(message.contains("CORRUPT"))
    }
}
