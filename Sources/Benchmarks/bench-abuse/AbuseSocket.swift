// AbuseSocket.swift: a blocking loopback client whose every call ends by a deadline.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock: every deadline and latency here is one of these.
enum Monotonic {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// One TCP connection to lecternd on 127.0.0.1, for abusing it or for
/// measuring it while it is abused.
///
/// Unlike the tests' `LineClient`, no call can block past the deadline it
/// is given: the socket's own send and receive timeouts are short (0.2 s)
/// and every call retries them until its deadline, so a daemon that stalls
/// or stops reading makes a call fail, never hang. Reading is linear in
/// what arrives: lines are cut from one buffer by an index, never by
/// removing bytes from its front.
///
/// One thread at a time may send and one (possibly another) may read;
/// ``shutdown()`` may be called from any thread and wakes both.
final class AbuseSocket: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// Bytes before this index hold no line feed (past `readIndex`).
    private var scannedIndex = 0
    /// Bytes received so far.
    private(set) var bytesReceived = 0
    private(set) var isClosedByPeer = false

    struct Failure: Error, CustomStringConvertible { let description: String }

    enum SendResult: Equatable { case sent, closed, timedOut, cancelled }
    enum ReadResult: Equatable { case line(String), closed, timedOut }

    /// - Parameter receiveBuffer: a small SO_RCVBUF, so that what a client
    ///   does not read piles up in the daemon rather than in the kernel.
    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var slice = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
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
            let code = errno
            Glibc.close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Ends the connection both ways; a send or read blocked in another
    /// thread returns at once. The descriptor stays open until deinit, so
    /// it cannot be reused under a thread still holding it.
    func shutdown() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    // MARK: Sending

    /// Sends all of `bytes`, or stops at the deadline, when the peer has
    /// gone, or when `isCancelled` says so (asked between partial sends).
    func send(_ bytes: [UInt8], deadline: Double, isCancelled: () -> Bool = { false }) -> SendResult {
        var offset = 0
        while offset < bytes.count {
            if isCancelled() { return .cancelled }
            if Monotonic.now() >= deadline { return .timedOut }
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, min($0.count, 1 << 20), Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                offset += n
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
            return .closed
        }
        return .sent
    }

    func send(_ text: String, deadline: Double) -> SendResult { send(Array(text.utf8), deadline: deadline) }

    // MARK: Reading

    private enum Fill { case data, closed, timedOut }

    /// Receives once (at most 0.2 s), or reports the deadline passed.
    private func fill(deadline: Double) -> Fill {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n > 0 {
                bytesReceived += n
                // Keep the buffer short: drop what has been read when it is
                // most of it, but the last byte read (``drain`` looks at it).
                if readIndex > (1 << 16) && readIndex * 2 > buffer.count {
                    let dropped = readIndex - 1
                    buffer.removeSubrange(..<dropped)
                    scannedIndex -= dropped
                    readIndex -= dropped
                }
                buffer.append(contentsOf: chunk[0..<n])
                return .data
            }
            if n == 0 {
                isClosedByPeer = true
                return .closed
            }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                if Monotonic.now() >= deadline { return .timedOut }
                continue
            }
            isClosedByPeer = true  // ECONNRESET and the like: the daemon dropped us
            return .closed
        }
    }

    /// The next line without its CRLF.
    func readLine(deadline: Double) -> ReadResult {
        while true {
            if let lf = buffer[max(readIndex, scannedIndex)...].firstIndex(of: 0x0A) {
                var end = lf
                if end > readIndex && buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[readIndex..<end], as: UTF8.self)
                readIndex = lf + 1
                scannedIndex = readIndex
                return .line(line)
            }
            scannedIndex = buffer.count
            switch fill(deadline: deadline) {
            case .data: continue
            case .closed: return .closed
            case .timedOut: return .timedOut
            }
        }
    }

    /// Whether `line` is a reply's final line (`[@tag ]OK…` / `ERR…`).
    static func isFinal(_ line: String) -> Bool {
        var words = line.split(separator: " ", maxSplits: 2)
        if words.first?.hasPrefix("@") == true { words.removeFirst() }
        return words.first == "OK" || words.first == "ERR"
    }

    /// Reads one whole reply (data lines, then the final line), skipping
    /// event lines; nil if the connection closed or the deadline passed.
    func readReply(deadline: Double) -> [String]? {
        var lines: [String] = []
        while case .line(let line) = readLine(deadline: deadline) {
            if line.hasPrefix("! ") { continue }
            lines.append(line)
            if AbuseSocket.isFinal(line) { return lines }
        }
        return nil
    }

    /// Sends one request line and returns its reply's final line.
    func request(_ line: String, deadline: Double) throws -> String {
        guard send(line + "\n", deadline: deadline) == .sent,
            let reply = readReply(deadline: deadline), let last = reply.last
        else {
            throw Failure(description: "no reply to '\(line.prefix(80))' (\(isClosedByPeer ? "closed by the daemon" : "timed out"))")
        }
        return last
    }

    enum DrainResult: Equatable { case found, closed, timedOut, tooMuch }

    /// Reads and discards everything up to and including the line `marker`
    /// (which must not be the connection's very first line), linear in the
    /// bytes read: a matcher over the stream, no line splitting, since what
    /// comes before may be megabytes of literal data.
    func drain(untilLine marker: String, deadline: Double, maximumBytes: Int = 1 << 30) -> DrainResult {
        let needle = [0x0A] + Array(marker.utf8) + [0x0D, 0x0A]
        // The needle's first byte (LF) occurs in it only once more, as its
        // last: after a mismatch the match can restart only at this byte.
        // A line was read just before: the next line may be the marker.
        var matched = readIndex > 0 && buffer[readIndex - 1] == 0x0A ? 1 : 0
        var consumed = 0
        while true {
            while readIndex < buffer.count {
                let byte = buffer[readIndex]
                readIndex += 1
                consumed += 1
                if byte == needle[matched] {
                    matched += 1
                    if matched == needle.count {
                        scannedIndex = readIndex
                        return .found
                    }
                } else {
                    matched = byte == needle[0] ? 1 : 0
                }
            }
            scannedIndex = readIndex
            if consumed > maximumBytes { return .tooMuch }
            switch fill(deadline: deadline) {
            case .data: continue
            case .closed: return .closed
            case .timedOut: return .timedOut
            }
        }
    }
}
