// Stats.swift: the daemon's figures from STATS.

/// The figures STATS reports, typed, plus every `name value` pair as sent
/// (a newer daemon may report more than this SDK names).
public struct Stats: Hashable, Sendable {
    /// The daemon's version (`0.1.0`).
    public var version: String
    /// Seconds since the daemon started.
    public var uptimeSeconds: Int
    /// Open connections, the asking one included.
    public var connections: Int
    /// Documents held.
    public var documents: Int
    /// Connections accepted since start.
    public var connectionsAccepted: Int
    /// Connections refused with `MAXCLIENTS`.
    public var connectionsRefused: Int
    /// Requests run since start, the STATS itself included.
    public var commandsProcessed: Int
    /// Requests run in the last whole second.
    public var commandsPerSecond: Int
    /// Resident memory of the daemon, in bytes.
    public var memoryRSSBytes: Int
    /// Reply bytes waiting to be sent, all connections.
    public var outputPendingBytes: Int
    /// The most unsent reply bytes any one connection has.
    public var outputPendingMaxBytes: Int
    /// The unsent-output limit that closes a connection (`--output-hard-limit`).
    public var outputHardLimitBytes: Int
    /// Typewriter streams running.
    public var streams: Int
    /// Typewriter ticks sent since start.
    public var ticksSent: Int
    /// Ticks held back or replaced because their reader was behind.
    public var eventsCoalesced: Int
    /// Every figure by its wire name (`uptime_seconds` → `"42"`).
    public var all: [String: String]

    init(_ lines: [ReplyFields]) throws {
        var all: [String: String] = [:]
        for line in lines {
            all[try line.word(at: 0)] = try line.word(at: 1)
        }
        self.all = all
        func figure(_ name: String) throws -> Int {
            guard let text = all[name], let value = Int(text) else {
                throw LecternError.malformedReply("STATS has no whole number \(name)")
            }
            return value
        }
        guard let version = all["version"] else { throw LecternError.malformedReply("STATS has no version") }
        self.version = version
        uptimeSeconds = try figure("uptime_seconds")
        connections = try figure("connections")
        documents = try figure("documents")
        connectionsAccepted = try figure("connections_accepted")
        connectionsRefused = try figure("connections_refused")
        commandsProcessed = try figure("commands_processed")
        commandsPerSecond = try figure("commands_per_second")
        memoryRSSBytes = try figure("memory_rss_bytes")
        outputPendingBytes = try figure("output_pending_bytes")
        outputPendingMaxBytes = try figure("output_pending_max_bytes")
        outputHardLimitBytes = try figure("output_hard_limit_bytes")
        streams = try figure("streams")
        ticksSent = try figure("ticks_sent")
        eventsCoalesced = try figure("events_coalesced")
    }
}
