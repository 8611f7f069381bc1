// RedisServer.swift: a real redis-server on a free loopback port, for the
// pubsub runs (the same as LecternRedisTests' own, in this test target).

import Foundation

/// Free loopback ports and whether something listens on one.
enum LoopbackPort {
    /// A port the kernel had free a moment ago (bound, read, closed).
    static func free() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether a connection to 127.0.0.1:`port` is accepted.
    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }
}

/// Debian's redis-server (no persistence) on a free loopback port, ready
/// when it accepts a connection; killed by `stop()` or deinit.
final class RedisServer {
    let port: UInt16
    private let process = Process()

    init() throws {
        port = try LoopbackPort.free()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--daemonize", "no", "--loglevel", "warning"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // At most 200 tries, 25 ms apart.
        for _ in 0..<200 where !LoopbackPort.accepts(port) { usleep(25_000) }
        guard LoopbackPort.accepts(port) else {
            stop()
            throw BuiltProcess.Failure(description: "redis-server did not start on 127.0.0.1:\(port)")
        }
    }

    /// Stops the server at once (SIGKILL: the test process's children may
    /// inherit a mask that blocks SIGTERM, and nothing here is persisted).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
