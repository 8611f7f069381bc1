// RedisProcess.swift: a real redis-server for the --redis tests.

import Foundation

/// Debian's redis-server on a free loopback port, with its append-only
/// file in a directory of its own and `appendfsync always` (a write Redis
/// has answered is on disk): it can be killed and started again on the
/// same port and directory, as an operator's restart would.
final class RedisProcess {
    let port: Int
    let directory: URL
    private var process: Process?

    /// Starts one on `port`, or on a free port.
    init(port: Int? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.port = try port ?? RedisProcess.freePort()
        try start()
    }

    /// `redis://127.0.0.1:<port>`.
    var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts the server (again) and waits until it answers PING.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes",
                             "--appendfsync", "always", "--dir", directory.path, "--daemonize", "no", "--loglevel", "warning"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Ready when PING answers (a restart first loads its append-only file): at most 10 s.
        for _ in 0..<400 {
            if cli("PING") == "PONG" { return }
            usleep(25_000)
        }
        throw LineClient.Failure(description: "redis-server did not start on port \(port)")
    }

    /// Kills the server at once (SIGKILL: no chance to write anything more).
    func kill() {
        guard let process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// What `redis-cli --raw` prints for one command, without the last line end.
    func cli(_ arguments: String...) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        process.arguments = ["-p", String(port), "--raw"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A port nothing listens on now (bound to port 0, then released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
