// LoadReport.swift: a finished run's figures, as text for people or JSON.

import Foundation

/// The result of a run: throughput, latency percentiles, errors by kind,
/// the client's own load, and the scenario's figures.
struct LoadReport {
    let options: LoadOptions
    let statistics: RunStatistics
    let measuredSeconds: Double
    let clientCPUShare: Double
    let scenario: ScenarioMetrics?
    let threads: [LoadResult.ThreadPart]

    static let percentiles: [(label: String, value: Double)] = [
        ("p50", 50), ("p90", 90), ("p99", 99), ("p99.9", 99.9),
    ]

    init(options: LoadOptions, result: LoadResult) {
        self.options = options
        statistics = result.statistics
        measuredSeconds = result.measuredSeconds
        clientCPUShare = result.clientCPUShare
        scenario = result.scenario
        threads = result.threads
    }

    var throughput: Double { measuredSeconds > 0 ? Double(statistics.completed) / measuredSeconds : 0 }

    var mode: String {
        if options.scenario == .type {
            return "\(options.streamsPerConnection) stream(s) per connection, \(options.intervalMilliseconds) ms interval"
        }
        return options.rate > 0 ? "open loop at \(Format.fixed(options.rate, 0))/s" : "closed loop, depth \(options.depth)"
    }

    // MARK: Text

    var text: String {
        var lines: [String] = []
        let connections = options.isFanout ? options.watchers + 1 : options.connections
        let threadCount = options.threads > 1 ? "  \(options.threads) threads" : ""
        let servers = options.nodes.isEmpty
            ? NodeAddress(host: options.host, port: options.port).description
            : "nodes " + options.nodes.map(\.description).joined(separator: ",")
        lines.append("lectern-load \(options.scenario.rawValue)  \(servers)  \(connections) connections\(threadCount)  \(mode)")
        lines.append("measured   \(Format.fixed(measuredSeconds, 2)) s after \(Format.fixed(options.warmupSeconds, 1)) s warm-up")
        lines.append("requests   \(statistics.completed) completed in the window (\(Format.fixed(throughput, 0))/s), \(statistics.sent) sent in all")
        lines.append("latency    " + Self.summary(statistics.latency))
        if options.rate > 0 {
            lines.append("send lag   p99 \(Format.milliseconds(statistics.sendLag.value(atPercentile: 99))) ms  max \(Format.milliseconds(statistics.sendLag.maximum)) ms (client lateness against the schedule)")
        }
        if let scenario {
            for (title, histogram) in scenario.histograms {
                lines.append("\(title):")
                lines.append("           " + Self.summary(histogram))
            }
            for figure in scenario.figures {
                let number = figure.value.number
                let value = number.rounded() == number ? Format.fixed(number, 0) : Format.fixed(number, 4)
                lines.append("           \(figure.name) \(value)")
            }
        }
        let errors = statistics.errors
        var errorLine = "errors     connect \(errors.connect)  timeout \(errors.timeout)  err \(errors.errorReply)  disconnect \(errors.disconnect)  malformed \(errors.malformed)"
        if !errors.byCode.isEmpty {
            errorLine += "  (" + errors.byCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
        lines.append(errorLine)
        for sample in errors.samples { lines.append("           \(sample)") }
        if options.threads > 1 {
            let perThread = threads.map { "\($0.completed)" }.joined(separator: " + ")
            lines.append("threads    \(options.threads), completed per thread \(perThread)")
        }
        // Near one core per thread, the client may be what limits throughput.
        let bottleneck = clientCPUShare / Double(options.threads) > 0.9 ? " (the client may be the bottleneck)" : ""
        let processWide = options.threads > 1 ? " (whole process, \(options.threads) threads: can exceed 100%)" : ""
        lines.append("client cpu \(Format.fixed(clientCPUShare * 100, 0))% of one core" + processWide + bottleneck)
        return lines.joined(separator: "\n") + "\n"
    }

    static func summary(_ histogram: LatencyHistogram) -> String {
        guard !histogram.isEmpty else { return "no samples" }
        let parts = percentiles.map { "\($0.label) \(Format.milliseconds(histogram.value(atPercentile: $0.value)))" }
        return "ms: " + parts.joined(separator: "  ") + "  max \(Format.milliseconds(histogram.maximum))  (\(histogram.count) samples)"
    }

    // MARK: JSON

    var json: String {
        var object: [String: Any] = [
            "scenario": options.scenario.rawValue,
            "host": options.host,
            "port": Int(options.port),
            "connections": options.isFanout ? options.watchers + 1 : options.connections,
            "mode": options.rate > 0 ? "open" : "closed",
            "depth": options.depth,
            "threads": options.threads,
            "per_thread": threads.map { ["connections": $0.connections, "completed": $0.completed, "sent": $0.sent] as [String: Any] },
            "load_replies_checked": statistics.loadRepliesChecked,
            "rate": options.rate,
            "warmup_seconds": options.warmupSeconds,
            "measured_seconds": measuredSeconds,
            "completed": statistics.completed,
            "sent": statistics.sent,
            "throughput_per_second": throughput,
            "latency_ms": Self.jsonLatency(statistics.latency),
            "client_cpu_share": clientCPUShare,
            "errors": [
                "connect": statistics.errors.connect,
                "timeout": statistics.errors.timeout,
                "err": statistics.errors.errorReply,
                "disconnect": statistics.errors.disconnect,
                "malformed": statistics.errors.malformed,
                "by_code": statistics.errors.byCode,
                "samples": statistics.errors.samples,
            ] as [String: Any],
        ]
        if options.rate > 0 { object["send_lag_ms"] = Self.jsonLatency(statistics.sendLag) }
        if !options.nodes.isEmpty { object["nodes"] = options.nodes.map(\.description) }
        if let scenario {
            var figures: [String: Any] = [:]
            for figure in scenario.figures { figures[figure.name] = figure.value.number }
            object["scenario_metrics"] = [
                "latency_ms": Dictionary(scenario.histograms.map { ($0.title, Self.jsonLatency($0.histogram)) },
                                         uniquingKeysWith: { first, _ in first }),
                "figures": figures,
            ] as [String: Any]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func jsonLatency(_ histogram: LatencyHistogram) -> [String: Any] {
        var values: [String: Any] = ["samples": histogram.count, "max": Double(histogram.maximum) / 1e6, "mean": histogram.mean / 1e6]
        for percentile in percentiles {
            values[percentile.label] = Double(histogram.value(atPercentile: percentile.value)) / 1e6
        }
        return values
    }
}
