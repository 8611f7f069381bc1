// Daemon.swift: a real lecternd process on a free loopback port, for tests.

import Foundation

/// Starts the `lecternd` built beside the test bundle with `--port 0`, reads
/// the port it chose from its "listening" log line, and stops it again.
///
/// Its standard error goes to a temporary file (a pipe nobody reads could
/// fill and block the daemon), which ``log`` reads back.
final class Daemon {
    let process = Process()
    let port: UInt16
    let logURL: URL

    /// The lecternd next to this test bundle, or $LECTERND.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["LECTERND"] { return URL(fileURLWithPath: path) }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("lecternd")
    }

    struct StartFailure: Error, CustomStringConvertible { let description: String }

    init(_ arguments: [String] = []) throws {
        logURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("lecternd-test-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.executableURL = Daemon.executable
        // In memory unless the test gives a data directory.
        let storage = arguments.contains("--data-dir") || arguments.contains(where: { $0.hasPrefix("--redis") }) ? [] : ["--memory"]
        process.arguments = ["--host", "127.0.0.1", "--port", "0"] + storage + arguments
        process.standardError = try FileHandle(forWritingTo: logURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()

        let deadline = Date().addingTimeInterval(15)
        var found: UInt16?
        while found == nil && Date() < deadline && process.isRunning {
            if let line = (try? String(contentsOf: logURL, encoding: .utf8))?
                .split(separator: "\n").first(where: { $0.contains("event=listening") }),
                let addr = line.split(separator: " ").first(where: { $0.hasPrefix("addr=") }),
                let port = addr.split(separator: ":").last.flatMap({ UInt16($0) })
            {
                found = port
            } else {
                usleep(10_000)
            }
        }
        guard let found else {
            process.terminate()
            throw StartFailure(description: "lecternd did not start: \((try? String(contentsOf: logURL, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    /// Everything the daemon has logged so far.
    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Sends `signal`, waits for the exit (at most 10 s) and returns the status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return -1
        }
        return process.terminationStatus
    }

    func connect() throws -> LineClient { try LineClient(port: port) }

    /// Runs lecternd with exactly `arguments` (nothing added) for a start
    /// that must fail: its exit status and what it logged.
    static func failedStart(_ arguments: [String]) throws -> (status: Int32, log: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, log)
    }

    deinit {
        if process.isRunning { stop(signal: SIGKILL) }
        try? FileManager.default.removeItem(at: logURL)
    }
}
