// RequestPathBenchmark.swift: the daemon's CPU per request, measured in
// process, without a load generator competing for the same cores.

import CUV
import Glibc
import LecternServer

/// A real daemon (in-memory store, its own loop) and one connection to it
/// over a Unix socketpair, driven from the calling thread: requests are
/// written, the loop runs until their replies are back, and the process's
/// CPU time around many such rounds gives what one request costs.
///
/// The same thread plays the client, so the figure includes the client's
/// `write`/`read` (kernel time, reported apart) and a scan of the replies
/// for their final lines (a `memchr` per line); there is no second process
/// for the scheduler to place, which is what makes the figure steady
/// enough to compare two builds of the daemon (see BENCHMARKS.md,
/// `bench-requests`). Loop thread = calling thread; not thread-safe.
public final class RequestPathBenchmark {
    private let server: Server
    private let client: Int32
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)
    /// Whether the next byte read starts a reply line.
    private var atLineStart = true

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.inMemory = true
        configuration.logLevel = .error
        Log.minimumLevel = .error
        server = try Server(configuration: configuration)
        server.start()
        guard let client = server.connectInProcess() else {
            throw StartError(description: "no in-process connection (socketpair or adoption failed, errno \(errno))")
        }
        self.client = client
    }

    deinit {
        Glibc.close(client)
        uv_run(server.loop, UV_RUN_NOWAIT)
    }

    /// Sends `requests` and runs the daemon until `finalLines` reply lines
    /// starting `OK` or `ERR` have come back. Returns every byte received,
    /// or nil if the replies stopped coming (bounded: 100,000 loop turns).
    public func exchange(_ requests: [UInt8], finalLines: Int) -> [UInt8]? {
        var received: [UInt8] = []
        return send(requests, finalLines: finalLines) { received.append(contentsOf: $0) } ? received : nil
    }

    /// What ``measure(_:finalLines:rounds:)`` reports.
    public struct Measurement {
        public let requests: Int
        public let userSeconds: Double
        public let systemSeconds: Double
        public let wallSeconds: Double
        public let replyBytes: Int
    }

    /// Sends `rounds` batches (`batches` in turn, each holding
    /// `finalLines` requests), each time waiting for all its replies, and
    /// measures the process's CPU time over all of it. Nil if the replies
    /// stopped coming.
    public func measure(_ batches: [[UInt8]], finalLines: Int, rounds: Int) -> Measurement? {
        precondition(!batches.isEmpty, "measure needs a batch")
        var replyBytes = 0
        let startUsage = Self.usage()
        var startWall = timespec()
        clock_gettime(CLOCK_MONOTONIC, &startWall)
        for round in 0..<rounds {
            guard send(batches[round % batches.count], finalLines: finalLines, { replyBytes += $0.count }) else { return nil }
        }
        var endWall = timespec()
        clock_gettime(CLOCK_MONOTONIC, &endWall)
        let endUsage = Self.usage()
        return Measurement(
            requests: rounds * finalLines,
            userSeconds: endUsage.user - startUsage.user,
            systemSeconds: endUsage.system - startUsage.system,
            wallSeconds: Double(endWall.tv_sec - startWall.tv_sec) + Double(endWall.tv_nsec - startWall.tv_nsec) / 1e9,
            replyBytes: replyBytes)
    }

    private func send(_ requests: [UInt8], finalLines: Int, _ received: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        var sent = 0
        var remaining = finalLines
        for _ in 0..<100_000 {
            if sent < requests.count {
                let n = requests.withUnsafeBytes { write(client, $0.baseAddress! + sent, requests.count - sent) }
                if n > 0 { sent += n }
            }
            uv_run(server.loop, UV_RUN_NOWAIT)
            while true {
                let n = readBuffer.withUnsafeMutableBytes { read(client, $0.baseAddress!, $0.count) }
                guard n > 0 else { break }
                readBuffer.withUnsafeBufferPointer { buffer in
                    let bytes = UnsafeBufferPointer(rebasing: buffer[0..<n])
                    remaining -= countFinalLines(bytes)
                    received(bytes)
                }
            }
            if remaining <= 0 && sent == requests.count { return true }
        }
        return false
    }

    /// Reply lines in `bytes` that start with `O` (OK) or `E` (ERR), the
    /// final line of each reply; data lines start with `*`.
    private func countFinalLines(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var index = 0
        while index < bytes.count {
            if atLineStart && (bytes[index] == UInt8(ascii: "O") || bytes[index] == UInt8(ascii: "E")) { count += 1 }
            guard let lineFeed = memchr(bytes.baseAddress! + index, 0x0A, bytes.count - index) else {
                atLineStart = false
                break
            }
            index = UnsafeRawPointer(bytes.baseAddress!).distance(to: UnsafeRawPointer(lineFeed)) + 1
            atLineStart = true
        }
        return count
    }

    private static func usage() -> (user: Double, system: Double) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime))
    }
}

@available(*, unavailable)
extension RequestPathBenchmark: Sendable {}
