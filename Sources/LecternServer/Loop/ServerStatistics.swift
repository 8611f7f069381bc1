// ServerStatistics.swift: the counters behind STATS and /metrics.

import Foundation
import LecternProtocol

/// Counters the daemon keeps for `STATS` and the metrics endpoint. Loop
/// thread only.
struct ServerStatistics {
    var startTime: UInt64 = 0
    var connectionsAccepted = 0
    var connectionsRefused = 0
    var commandsProcessed = 0
    /// Bytes read from clients (requests, payloads), all connections.
    var bytesReceived = 0
    /// Bytes the kernel took from the daemon (replies and events), all connections.
    var bytesSent = 0
    /// Events (`! …` lines, RESP pushes) queued to connections.
    var eventsSent = 0
    /// Stream events held back or replaced because a reader was behind.
    var eventsCoalesced = 0
    /// Times a connection spent its per-turn budget with requests still
    /// buffered and left them for the next turn.
    var turnYields = 0
    /// Times a connection was paused (not read, requests not run) because
    /// its queued unsent output passed the soft limit.
    var outputPauses = 0
    /// Replies built on the thread pool because they grow with a document.
    var backgroundReplies = 0
    /// Error replies sent, by code (whatever sent them: the gate, a reply
    /// built off the loop, the decoder, a close).
    private(set) var errorsByCode: [ErrorCode: Int] = [:]
    /// When the gate let the last request go (`uv_hrtime`), while the
    /// connection that sent it goes on with its next buffered request in
    /// the same burst; 0 otherwise. The next request's time starts there
    /// (its decoding included), so that a pipelined request costs one clock
    /// reading, not two. Cleared (by ``startBurst()``) wherever requests
    /// start to run: a connection's run of buffered requests, a deferred
    /// request run again.
    var burstClock: UInt64 = 0

    /// A connection starts running requests: the first one's time starts at the gate.
    @inline(__always)
    mutating func startBurst() { burstClock = 0 }

    /// Calls, errors and latency per command (see ``CommandStatistics``).
    var commands: CommandStatistics
    /// Commands per whole second over the last ``RequestRate/window`` seconds.
    private(set) var rate = RequestRate()

    init(commandCount: Int) {
        commands = CommandStatistics(commandCount: commandCount)
    }

    /// Every error reply, counted by its code.
    mutating func countError(_ code: ErrorCode) {
        errorsByCode[code, default: 0] += 1
    }

    /// Error replies sent, all codes.
    var errors: Int { errorsByCode.values.reduce(0, +) }

    /// Called once a second by housekeeping: closes the second's request count.
    mutating func closeSecond() {
        rate.closeSecond(total: commandsProcessed)
    }

    /// Commands in the last whole second.
    var commandsLastSecond: Int { rate.average(over: 1) }

    /// Resident memory of the daemon in bytes, from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Requests per second, as averages over the last 1, 10 and 60 whole
/// seconds: a ring of the per-second counts, closed by the once-a-second
/// housekeeping timer. Before 10 (60) seconds have passed, the average is
/// over the seconds there were.
struct RequestRate {
    /// Seconds remembered.
    static let window = 60
    private var perSecond = [Int](repeating: 0, count: RequestRate.window)
    /// Seconds closed so far (the ring's next slot is `closed % window`).
    private var closed = 0
    private var totalAtSecondStart = 0

    mutating func closeSecond(total: Int) {
        perSecond[closed % Self.window] = total - totalAtSecondStart
        totalAtSecondStart = total
        closed += 1
    }

    /// Requests per second over the last `seconds` whole seconds (1...window),
    /// rounded down to a whole number for 1 s, else to hundredths.
    func average(over seconds: Int) -> Int {
        Int(exactAverage(over: seconds))
    }

    /// The same as a fraction.
    func exactAverage(over seconds: Int) -> Double {
        let span = min(seconds, closed, Self.window)
        guard span > 0 else { return 0 }
        var sum = 0
        for back in 1...span { sum += perSecond[(closed - back) % Self.window] }
        return Double(sum) / Double(span)
    }
}

/// Per command (by its index in the command table): calls, errors, the
/// time spent and a latency histogram, in one flat array made at start:
/// recording a request allocates nothing.
///
/// The histogram has ``bucketsPerOctave`` buckets per power of two of
/// nanoseconds from 2^10 ns (1.024 µs) up: bucket 0 holds everything under
/// 1.024 µs, bucket `1 + 4·(e − 10) + s` the durations whose top bit is
/// 2^e and next two bits `s`; the last bucket is open-ended (from about
/// 2^37 ns, 137 s). A percentile is the upper bound of the bucket that
/// holds it: at most 19 % (2^¼) above the true value.
struct CommandStatistics {
    static let bucketsPerOctave = 4
    /// 2^10 ns: the upper bound of bucket 0.
    static let smallestOctave = 10
    static let bucketCount = 1 + 27 * bucketsPerOctave + 1

    let commandCount: Int
    /// Per command, ``stride`` counts: calls, errors, nanoseconds, then
    /// the ``bucketCount`` histogram buckets. One array, so that recording
    /// checks one buffer's uniqueness.
    private var counts: [Int]
    private static let stride = 3 + bucketCount

    init(commandCount: Int) {
        self.commandCount = commandCount
        counts = [Int](repeating: 0, count: commandCount * Self.stride)
    }

    /// One request of the command at `command`, that took `duration` ns.
    @inline(__always)
    mutating func record(_ command: Int, nanoseconds duration: UInt64, failed: Bool) {
        let base = command &* Self.stride
        counts[base] &+= 1
        if failed { counts[base &+ 1] &+= 1 }
        counts[base &+ 2] &+= Int(truncatingIfNeeded: duration)
        counts[base &+ 3 &+ Self.bucket(of: duration)] &+= 1
    }

    /// Requests of the command at `command`.
    func calls(_ command: Int) -> Int { counts[command * Self.stride] }
    /// Of those, answered with an error.
    func errors(_ command: Int) -> Int { counts[command * Self.stride + 1] }
    /// Their time together, in ns.
    func nanoseconds(_ command: Int) -> Int { counts[command * Self.stride + 2] }

    /// The histogram bucket of a duration in ns (see the type's summary).
    @inline(__always)
    static func bucket(of duration: UInt64) -> Int {
        guard duration >= 1 << smallestOctave else { return 0 }
        let octave = 63 - duration.leadingZeroBitCount
        let quarter = Int(truncatingIfNeeded: (duration >> (octave - 2)) & 3)
        return min(1 + (octave - smallestOctave) * bucketsPerOctave + quarter, bucketCount - 1)
    }

    /// The exclusive upper bound of `bucket` in ns; nil for the last (open) bucket.
    static func upperBound(ofBucket bucket: Int) -> UInt64? {
        guard bucket < bucketCount - 1 else { return nil }
        guard bucket > 0 else { return 1 << smallestOctave }
        let octave = smallestOctave + (bucket - 1) / bucketsPerOctave
        let quarter = UInt64((bucket - 1) % bucketsPerOctave)
        return (4 + quarter + 1) << (octave - 2)
    }

    /// The count in each bucket of `command`.
    func histogram(of command: Int) -> ArraySlice<Int> {
        let start = command * Self.stride + 3
        return counts[start..<start + Self.bucketCount]
    }

    /// The `fraction` (0.5 for p50) percentile of `command`'s latency in
    /// ns: the upper bound of the bucket holding it (the lower bound of the
    /// open last bucket if it is there); 0 with no calls.
    func percentile(_ fraction: Double, of command: Int) -> UInt64 {
        let histogram = histogram(of: command)
        let total = histogram.reduce(0, +)
        guard total > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(total)).rounded(.up)))
        var seen = 0
        for (offset, count) in histogram.enumerated() {
            seen += count
            if seen >= rank {
                return Self.upperBound(ofBucket: offset) ?? (Self.upperBound(ofBucket: Self.bucketCount - 2) ?? 0)
            }
        }
        return 0
    }
}
