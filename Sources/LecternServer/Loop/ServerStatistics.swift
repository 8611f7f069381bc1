// ServerStatistics.swift: the counters behind STATS.

import Foundation

/// Counters the daemon keeps for `STATS`. Loop thread only.
struct ServerStatistics {
    var startTime: UInt64 = 0
    var connectionsAccepted = 0
    var connectionsRefused = 0
    var commandsProcessed = 0
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
    /// Commands in the last whole second (updated by housekeeping).
    private(set) var commandsLastSecond = 0
    private var commandsAtSecondStart = 0

    mutating func closeSecond() {
        commandsLastSecond = commandsProcessed - commandsAtSecondStart
        commandsAtSecondStart = commandsProcessed
    }

    /// Resident memory of the daemon in bytes, from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
