// BuiltProcess.swift: lecternd and lectern-load from the build directory, as processes.

import Foundation

/// The executables `swift test` built beside this test bundle (the test
/// target depends on both), started as real processes.
enum BuiltProcess {
    static func url(_ name: String) -> URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name)
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// A lecternd on a free loopback port (`--port 0`), read from its
    /// `event=listening` log line. Stopped with SIGTERM by `stop()` or deinit.
    final class Daemon {
        let process = Process()
        let port: UInt16
        private let log: URL

        init(_ arguments: [String]) throws {
            log = FileManager.default.temporaryDirectory.appendingPathComponent("lecternd-load-\(UUID().uuidString).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.executableURL = BuiltProcess.url("lecternd")
            process.arguments = ["--host", "127.0.0.1", "--port", "0", "--log-level", "warn", "--memory"] + arguments
            process.standardError = try FileHandle(forWritingTo: log)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline && process.isRunning {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").first(where: { $0.contains("event=listening") }),
                    let address = line.split(separator: " ").first(where: { $0.hasPrefix("addr=") }),
                    let port = address.split(separator: ":").last.flatMap({ UInt16($0) })
                {
                    self.port = port
                    return
                }
                usleep(10_000)
            }
            process.terminate()
            throw Failure(description: "lecternd did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        deinit {
            stop()
            try? FileManager.default.removeItem(at: log)
        }
    }

    /// Runs lectern-load with `--json` to the end; its exit status and report.
    static func load(_ arguments: [String]) throws -> (status: Int32, report: [String: Any]) {
        let process = Process()
        process.executableURL = url("lectern-load")
        process.arguments = arguments + ["--json", "--no-progress"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let report = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "lectern-load printed no JSON object: \(String(decoding: data, as: UTF8.self))")
        }
        return (process.terminationStatus, report)
    }
}
