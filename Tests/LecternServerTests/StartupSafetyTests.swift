// StartupSafetyTests.swift: one daemon per data directory and per Unix
// socket, nothing unlinked that is not the daemon's own, and a start-up
// over --max-documents that says so.

import Foundation
import Testing

/// A daemon expected to refuse to start: runs it until it exits by itself
/// (killed after 15 s if it does not) and returns its status and log.
func runUntilExit(_ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, log: String) {
    let logURL = FileManager.default.temporaryDirectory.appendingPathComponent("lecternd-refused-\(UUID().uuidString.prefix(8)).log")
    _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: logURL) }
    let process = Process()
    process.executableURL = Daemon.executable
    let storage = arguments.contains("--data-dir") ? [] : ["--memory"]
    process.arguments = ["--host", "127.0.0.1", "--port", "0"] + storage + arguments
    process.standardError = try FileHandle(forWritingTo: logURL)
    process.standardOutput = FileHandle.nullDevice
    if let environment { process.environment = environment }
    try process.run()
    let deadline = Date().addingTimeInterval(15)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return (-1, (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
    }
    return (process.terminationStatus, (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
}

/// A fresh, short path for a Unix socket (sun_path holds 107 bytes).
private func socketPath() -> String {
    "/tmp/lectern-test-\(UUID().uuidString.prefix(8)).sock"
}

private func scratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-data-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite struct DataDirectoryLockDaemonTests {
    @Test func aSecondDaemonOnTheSameDataDirectoryExitsNamingTheFirst() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Daemon(["--data-dir", directory.path])
        let client = try first.connect()
        #expect(try client.request("PUT one \"Written by the first daemon.\"").last?.hasPrefix("OK PUT") == true)

        let second = try runUntilExit(["--data-dir", directory.path])
        #expect(second.status == 1)
        #expect(second.log.contains("event=start_failed"))
        #expect(second.log.contains("another lecternd (pid \(first.process.processIdentifier)) is using \(directory.path)"))
        #expect(!second.log.contains("event=listening"))

        // The first one was not disturbed.
        #expect(try client.request("GET one").dropFirst().first == "Written by the first daemon.")
        #expect(try client.request("PUT two \"Still acknowledged.\"").last?.hasPrefix("OK PUT") == true)
        #expect(first.stop() == 0)

        // Once it has stopped, the directory is free, with everything in it.
        let third = try Daemon(["--data-dir", directory.path])
        #expect(try third.connect().request("LIST").last == "OK LIST 2")
    }

    @Test func aDaemonKilledWithSigkillLeavesNoLockBehind() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Daemon(["--data-dir", directory.path])
        #expect(try first.connect().request("PUT kept \"Acknowledged before the kill.\"").last?.hasPrefix("OK PUT") == true)
        first.stop(signal: SIGKILL)
        // The lock file is still there, with the dead daemon's PID; the lock is not.
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("lectern.lock").path))
        let next = try Daemon(["--data-dir", directory.path])
        #expect(try next.connect().request("GET kept").dropFirst().first == "Acknowledged before the kill.")
    }

    /// Stores the document `keep` ("Still readable.") in `directory`, with
    /// a daemon that then stops cleanly.
    private func storeOneDocument(in directory: URL) throws {
        let writer = try Daemon(["--data-dir", directory.path])
        #expect(try writer.connect().request("PUT keep \"Still readable.\"").last?.hasPrefix("OK PUT") == true)
        #expect(writer.stop() == 0)
    }

    @Test func aReadOnlyDataDirectoryServesOneDaemonOnly() throws {
        let directory = try scratchDirectory()
        defer {
            chattr(["-R", "-i", directory.path])
            try? FileManager.default.removeItem(at: directory)
        }
        try storeOneDocument(in: directory)
        // Immutable, lock file included: even root cannot write.
        try #require(chattr(["-R", "+i", directory.path]))
        let reader = try Daemon(["--data-dir", directory.path])
        #expect(reader.log.contains("event=store_read_only"))
        #expect(!reader.log.contains("event=store_unlocked"))
        let second = try runUntilExit(["--data-dir", directory.path])
        #expect(second.status == 1)
        #expect(second.log.contains("another lecternd (pid \(reader.process.processIdentifier))"))
        #expect(try reader.connect().request("GET keep").dropFirst().first == "Still readable.")
    }

    @Test func aReadOnlyDataDirectoryWithoutALockFileSaysItIsUnlocked() throws {
        let directory = try scratchDirectory()
        defer {
            chattr(["-R", "-i", directory.path])
            try? FileManager.default.removeItem(at: directory)
        }
        try storeOneDocument(in: directory)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("lectern.lock"))
        try #require(chattr(["-R", "+i", directory.path]))
        let reader = try Daemon(["--data-dir", directory.path])
        #expect(reader.log.contains("event=store_unlocked"))
        #expect(try reader.connect().request("GET keep").dropFirst().first == "Still readable.")
    }

    @discardableResult
    private func chattr(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

@Suite struct UnixSocketTakeoverTests {
    @Test func aLiveSocketIsNotTakenOver() throws {
        let path = socketPath()
        defer { unlink(path) }
        let first = try Daemon(["--unix-socket", path])
        let second = try runUntilExit(["--unix-socket", path])
        #expect(second.status == 1)
        #expect(second.log.contains("event=start_failed"))
        #expect(second.log.contains("another daemon is listening on \(path)"))
        // Clients of the path still reach the first daemon.
        #expect(try LineClient(unixPath: path).request("PING") == ["OK PONG"])
        // Its own socket it removes when it stops.
        #expect(first.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aPathThatIsNotASocketIsRefusedAndLeftAlone() throws {
        let path = socketPath()
        defer { unlink(path) }
        try Data("not a socket".utf8).write(to: URL(fileURLWithPath: path))
        let refused = try runUntilExit(["--unix-socket", path])
        #expect(refused.status == 1)
        #expect(refused.log.contains("\(path) exists and is not a socket"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a socket")
    }

    @Test func aStaleSocketIsTakenOver() throws {
        let path = socketPath()
        defer { unlink(path) }
        let killed = try Daemon(["--unix-socket", path])
        killed.stop(signal: SIGKILL)
        // kill -9 left the socket file, with nobody listening on it.
        #expect(FileManager.default.fileExists(atPath: path))
        let next = try Daemon(["--unix-socket", path])
        #expect(try LineClient(unixPath: path).request("PING") == ["OK PONG"])
        #expect(next.stop() == 0)
    }

    @Test func stoppingDoesNotUnlinkASocketThatReplacedItsOwn() throws {
        let path = socketPath()
        defer { unlink(path) }
        let old = try Daemon(["--unix-socket", path])
        // Someone removed the old daemon's socket and a new daemon bound the path.
        unlink(path)
        let new = try Daemon(["--unix-socket", path])
        #expect(old.stop() == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try LineClient(unixPath: path).request("PING") == ["OK PONG"])
        #expect(new.stop() == 0)
    }
}

@Suite struct DocumentLimitAtStartupTests {
    @Test func aStoreOverMaxDocumentsIsServedWithAWarningAndTakesNoNewOnes() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let roomy = try Daemon(["--data-dir", directory.path, "--max-documents", "10"])
            let client = try roomy.connect()
            for id in ["a", "b", "c", "d"] {
                #expect(try client.request("PUT \(id) \"Document \(id).\"").last?.hasPrefix("OK PUT") == true)
            }
            #expect(roomy.stop() == 0)
        }
        let tight = try Daemon(["--data-dir", directory.path, "--max-documents", "2"])
        #expect(tight.log.contains("event=documents_over_limit documents=4 limit=2"))
        let client = try tight.connect()
        // All four are served, and can be replaced.
        #expect(try client.request("LIST").last == "OK LIST 4")
        #expect(try client.request("GET d").dropFirst().first == "Document d.")
        #expect(try client.request("PUT a \"Replaced.\"").last?.hasPrefix("OK PUT") == true)
        // A new one is refused until DEL brings the count under the limit.
        #expect(try client.request("PUT e \"New.\"").last?.hasPrefix("ERR TOOMANY") == true)
        #expect(try client.request("DEL a").last?.hasPrefix("OK") == true)
        #expect(try client.request("DEL b").last?.hasPrefix("OK") == true)
        #expect(try client.request("PUT e \"New.\"").last?.hasPrefix("ERR TOOMANY") == true)
        #expect(try client.request("DEL c").last?.hasPrefix("OK") == true)
        #expect(try client.request("PUT e \"New.\"").last?.hasPrefix("OK PUT") == true)
    }

    @Test func noWarningWithinTheLimit() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let daemon = try Daemon(["--data-dir", directory.path])
            #expect(try daemon.connect().request("PUT a \"One.\"").last?.hasPrefix("OK PUT") == true)
            #expect(daemon.stop() == 0)
        }
        let daemon = try Daemon(["--data-dir", directory.path, "--max-documents", "1"])
        #expect(try daemon.connect().request("LIST").last == "OK LIST 1")
        #expect(!daemon.log.contains("documents_over_limit"))
    }
}
