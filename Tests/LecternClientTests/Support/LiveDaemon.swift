// LiveDaemon.swift: a real lecternd for the SDK's tests, on a free loopback port.

import Foundation
import LecternClient

/// Starts the `lecternd` built beside the test bundle (or `$LECTERND`) and
/// stops it again; `port` is the one it chose with `--port 0`, or the one
/// given (to restart a daemon where a client expects it).
final class LiveDaemon: @unchecked Sendable {
    let port: UInt16
    let unixSocket: String
    private let process = Process()
    private let logURL: URL

    struct StartFailure: Error, CustomStringConvertible { let description: String }

    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["LECTERND"] { return URL(fileURLWithPath: path) }
        #if os(Linux)
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #else
        let bundle = Bundle.main.bundleURL.deletingLastPathComponent()
        #endif
        return bundle.appendingPathComponent("lecternd")
    }

    /// - Parameter arguments: extra flags; without `--data-dir` the daemon
    ///   keeps documents in memory (`--memory`), writing nothing to disk.
    init(port: UInt16 = 0, arguments: [String] = []) throws {
        let name = UUID().uuidString.prefix(8)
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("lecternd-sdk-\(name).log")
        unixSocket = FileManager.default.temporaryDirectory.appendingPathComponent("lecternd-sdk-\(name).sock").path
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.executableURL = Self.executable
        process.arguments = ["--host", "127.0.0.1", "--port", String(port), "--unix-socket", unixSocket]
            + (arguments.contains("--data-dir") ? [] : ["--memory"]) + arguments
        process.standardError = try FileHandle(forWritingTo: logURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline && process.isRunning {
            if let found = Self.listeningPort(in: (try? String(contentsOf: logURL, encoding: .utf8)) ?? "") {
                self.port = found
                return
            }
            usleep(10_000)
        }
        process.terminate()
        throw StartFailure(description: "lecternd did not start: \((try? String(contentsOf: logURL, encoding: .utf8)) ?? "")")
    }

    /// The port of the first `event=listening addr=127.0.0.1:PORT` log line.
    private static func listeningPort(in log: String) -> UInt16? {
        for line in log.split(separator: "\n") where line.contains("event=listening") {
            for field in line.split(separator: " ") where field.hasPrefix("addr=127.0.0.1:") {
                if let port = field.split(separator: ":").last.flatMap({ UInt16($0) }) { return port }
            }
        }
        return nil
    }

    /// A connection to this daemon.
    func connect(reconnect: ReconnectPolicy? = nil) async throws -> LecternConnection {
        try await LecternConnection.connect(host: "127.0.0.1", port: port, timeout: .seconds(5), reconnect: reconnect)
    }

    /// Stops the daemon (SIGTERM, then SIGKILL after 10 s) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Kills the daemon with SIGKILL, as a crash would (no clean shutdown:
    /// its connections are reset), and waits for it.
    func killAbruptly() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: logURL)
        try? FileManager.default.removeItem(atPath: unixSocket)
    }
}
