// LineClient.swift: a blocking line-protocol client over a real TCP socket.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain socket client, the way netcat talks to lecternd: send lines,
/// read CRLF-terminated lines. Every read has a timeout so a test fails
/// instead of hanging when the daemon does not answer.
final class LineClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var isClosedByPeer = false

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The port this client connected to.
    private(set) var port: UInt16 = 0

    /// - Parameter receiveBuffer: a small SO_RCVBUF makes a slow reader's
    ///   backlog pile up in the daemon instead of the kernel.
    init(port: UInt16, timeoutSeconds: Int = 10, receiveBuffer: Int32? = nil) throws {
        fd = try Self.connectedSocket(port: port, timeoutSeconds: timeoutSeconds, receiveBuffer: receiveBuffer)
        self.port = port
    }

    /// A TCP socket connected to 127.0.0.1:`port`, with receive and send
    /// timeouts (a stalled daemon fails a test instead of hanging it).
    static func connectedSocket(port: UInt16, timeoutSeconds: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            Glibc.close(fd)
            throw Failure(description: "connect to port \(port) failed: errno \(errno)")
        }
        return fd
    }

    /// Connects to a Unix-domain socket.
    init(unixPath: String, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in unixPath.utf8.prefix(capacity - 1).enumerated() { raw[i] = byte }
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            Glibc.close(fd)
            throw Failure(description: "connect to \(unixPath) failed: errno \(errno)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends raw bytes; returns false if the peer has gone.
    @discardableResult
    func send(bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(bytes: Array(text.utf8)) }

    /// Half-closes the connection: no more requests, replies still readable.
    func shutdownWriting() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Sends one line with LF.
    @discardableResult
    func sendLine(_ line: String) -> Bool { send(line + "\n") }

    /// The next line without its CRLF; nil at end of stream.
    func readLine() throws -> String? {
        while true {
            if let lf = buffer.firstIndex(of: 0x0A) {
                var line = buffer[..<lf]
                if line.last == 0x0D { line = line.dropLast() }
                let text = String(decoding: line, as: UTF8.self)
                buffer.removeSubrange(...lf)
                return text
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 {
                isClosedByPeer = true
                return nil
            }
            if n < 0 {
                if errno == ECONNRESET {
                    isClosedByPeer = true
                    return nil
                }
                throw Failure(description: "recv failed or timed out (errno \(errno)); buffered: \(String(decoding: buffer, as: UTF8.self))")
            }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Exactly `count` raw bytes (a literal's payload).
    func readBytes(count: Int) throws -> [UInt8] {
        while buffer.count < count {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { throw Failure(description: "stream ended or timed out reading \(count) bytes") }
            buffer.append(contentsOf: chunk[0..<n])
        }
        let bytes = Array(buffer[..<count])
        buffer.removeSubrange(..<count)
        return bytes
    }

    /// Whether `line` is a reply's final status line (`[@tag ]OK…`/`ERR…`).
    static func isFinal(_ line: String) -> Bool {
        var words = line.split(separator: " ", maxSplits: 2).map(String.init)
        if words.first?.hasPrefix("@") == true { words.removeFirst() }
        return words.first == "OK" || words.first == "ERR"
    }

    /// Reads one whole reply: data lines, then the final line (last element).
    func readReply() throws -> [String] {
        var lines: [String] = []
        while let line = try readLine() {
            lines.append(line)
            if LineClient.isFinal(line) { return lines }
        }
        throw Failure(description: "connection closed in the middle of a reply: \(lines)")
    }

    /// Sends `line` and returns its reply's lines.
    func request(_ line: String) throws -> [String] {
        sendLine(line)
        return try readReply()
    }

    /// Reads until the daemon closes the connection; true if it did.
    func waitForClose() throws -> Bool {
        while try readLine() != nil {}
        return isClosedByPeer
    }
}
