// Server+Statistics.swift: the figures STATS reports, and its reply.

import CUV
import LecternProtocol

extension Server {
    /// A figure of STATS: a count, or text (the version).
    enum StatisticsFigure {
        case count(Int)
        case text(String)
    }

    /// STATS's reply: a `* name value` data line per figure, then
    /// `OK STATS`; to Redis clients a map of the names to the values,
    /// counts as integers.
    func statisticsReply() -> Reply {
        let figures = statisticsFigures()
        var reply = Reply("STATS", data: figures.map { figure in
            switch figure.value {
            case .count(let count): return figure.name + " " + WireNumber.text(count)
            case .text(let text): return figure.name + " " + text
            }
        })
        reply.resp = .map(figures.map { figure in
            switch figure.value {
            case .count(let count): return (.text(figure.name), .integer(count))
            case .text(let text): return (.text(figure.name), .text(text))
            }
        })
        return reply
    }

    /// STATS's figures, in a fixed order (documented in PROTOCOL.md).
    func statisticsFigures() -> [(name: String, value: StatisticsFigure)] {
        var pending = 0
        var largest = 0
        for connection in openConnections {
            pending += connection.pendingOutputBytes
            largest = max(largest, connection.pendingOutputBytes)
        }
        let uptime = Int(clamping: (uv_now(loop) &- statistics.startTime) / 1000)
        let counts: [(String, Int)] = [
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
        return [("version", .text(Lectern.version))] + counts.map { ($0.0, .count($0.1)) }
    }
}
