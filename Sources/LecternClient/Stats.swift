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
    /// Requests run in the last whole second (`commands_per_second_10s`
    /// and `_60s` in ``all`` average over longer windows).
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
    /// Bytes read from clients since start (`bytes_in`; 0 from a daemon that does not report it).
    public var bytesIn: Int
    /// Bytes the kernel took from the daemon since start (`bytes_out`).
    public var bytesOut: Int
    /// Error replies sent, by code (`error_NUMBER 1` → `["NUMBER": 1]`).
    public var errorsByCode: [String: Int]
    /// Per command (upper-case name), for the commands called at least once.
    public var commands: [String: CommandStats]
    /// The sections, in the order sent (`server`, `clients`, …).
    public var sections: [String]
    /// Every figure by its wire name (`uptime_seconds` → `"42"`; a
    /// per-command figure → `"calls=3 errors=0 …"`).
    public var all: [String: String]

    /// One command's figures (a `command_<name>` line).
    public struct CommandStats: Hashable, Sendable {
        /// Requests naming the command, refused ones included.
        public var calls: Int
        /// Of those, answered with an error.
        public var errors: Int
        /// Microseconds spent in all of them together.
        public var usec: Int
        public var usecPerCall: Double
        /// The median latency and the 99th percentile, in µs (the upper
        /// bound of the daemon's histogram bucket: at most 19 % high).
        public var p50Usec: Double
        public var p99Usec: Double
    }

    init(_ lines: [ReplyFields]) throws {
        var all: [String: String] = [:]
        var sections: [String] = []
        var commands: [String: CommandStats] = [:]
        var errorsByCode: [String: Int] = [:]
        for line in lines {
            let name = try line.word(at: 0)
            if name == "#" {
                sections.append(try line.word(at: 1))
                continue
            }
            // The value is the rest of the line: one word, or key=value tokens.
            let rest = line.line.drop { $0 != " " }.dropFirst()
            all[name] = String(rest)
            if name.hasPrefix("command_") {
                commands[String(name.dropFirst("command_".count)).uppercased()] = CommandStats(
                    calls: try line.int("calls"), errors: try line.int("errors"), usec: try line.int("usec"),
                    usecPerCall: try line.double("usec_per_call"), p50Usec: try line.double("p50_usec"),
                    p99Usec: try line.double("p99_usec"))
            } else if name.hasPrefix("error_"), let count = Int(rest) {
                errorsByCode[String(name.dropFirst("error_".count))] = count
            }
        }
        self.all = all
        self.sections = sections
        self.commands = commands
        self.errorsByCode = errorsByCode
        bytesIn = all["bytes_in"].flatMap { Int($0) } ?? 0
        bytesOut = all["bytes_out"].flatMap { Int($0) } ?? 0
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
