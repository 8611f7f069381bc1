// BenchDaemon.swift: a fresh lecternd on a free loopback port for each abuse.

import Foundation

/// Starts `lecternd --port 0 --memory` (with a token file of mode 0600),
/// reads the port from its `event=listening` log line, and stops it.
/// Its log goes to a file, which ``log`` reads back.
final class BenchDaemon {
    let process = Process()
    let port: UInt16
    let token: String
    private let directory: URL

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(executable: URL, extraArguments: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-abuse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        token = "bench-\(UUID().uuidString)"
        let tokenFile = directory.appendingPathComponent("token")
        guard FileManager.default.createFile(atPath: tokenFile.path, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw Failure(description: "cannot write \(tokenFile.path)") }
        let logFile = directory.appendingPathComponent("lecternd.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process.executableURL = executable
        process.arguments = ["--host", "127.0.0.1", "--port", "0", "--memory", "--auth-token-file", tokenFile.path] + extraArguments
        process.standardError = try FileHandle(forWritingTo: logFile)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        var found: UInt16?
        while found == nil && Date() < deadline && process.isRunning {
            if let line = (try? String(contentsOf: logFile, encoding: .utf8))?
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
            throw Failure(description: "lecternd did not start: \((try? String(contentsOf: logFile, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    var log: String { (try? String(contentsOf: directory.appendingPathComponent("lecternd.log"), encoding: .utf8)) ?? "" }

    /// SIGTERM, then SIGKILL if it has not exited within 10 s.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { if process.isRunning { stop() } }
}
