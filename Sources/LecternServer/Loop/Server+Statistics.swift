// Server+Statistics.swift: the figures STATS reports.

import CUV

extension Server {
    /// STATS's figures, in a fixed order (documented in PROTOCOL.md).
    func statisticsFigures() -> [(name: String, value: String)] {
        var pending = 0
        var largest = 0
        for connection in openConnections {
            pending += connection.pendingOutputBytes
            largest = max(largest, connection.pendingOutputBytes)
        }
        let uptime = (uv_now(loop) &- statistics.startTime) / 1000
        let figures: [(String, CustomStringConvertible)] = [
            ("version", Lectern.version),
            ("uptime_seconds", uptime),
            ("connections", openConnections.count),
            ("documents", documents.count),
            ("connections_accepted", statistics.connectionsAccepted),
            ("connections_refused", statistics.connectionsRefused),
            ("commands_processed", statistics.commandsProcessed),
            ("commands_per_second", statistics.commandsLastSecond),
            ("memory_rss_bytes", ServerStatistics.residentBytes()),
            ("output_pending_bytes", pending),
            ("output_pending_max_bytes", largest),
            ("output_hard_limit_bytes", configuration.outputHardLimit),
            ("streams", readers.streamCount),
            ("ticks_sent", typewriters.ticksSent),
            ("events_coalesced", statistics.eventsCoalesced),
            ("layouts_computed", layouts.computedCount),
            ("layouts_background", layouts.computedInBackgroundCount),
            ("turn_yields", statistics.turnYields),
            ("output_pauses", statistics.outputPauses),
            ("ticks_skipped", typewriters.ticksSkipped),
            ("background_replies", statistics.backgroundReplies),
        ]
        return figures.map { ($0.0, $0.1.description) }
    }
}
