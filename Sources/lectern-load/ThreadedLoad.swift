// ThreadedLoad.swift: a run over `--threads` loops, and their merged result.

import Foundation

/// What a run measured, over all its threads.
struct LoadResult {
    /// One thread's part, for the report's per-thread figures.
    struct ThreadPart: Equatable {
        let connections: Int
        let completed: UInt64
        let sent: UInt64
    }

    var statistics: RunStatistics
    /// Length of the measured window in seconds (the threads share one
    /// window; if one ended early, the longest).
    var measuredSeconds: Double
    /// The whole process's CPU time over the load (first start to last
    /// finish) as a share of one core: above 1 is possible with threads.
    var clientCPUShare: Double
    var scenario: ScenarioMetrics?
    var threads: [ThreadPart]

    /// Merges the runners' figures: counts add, histograms merge bucket by
    /// bucket (percentiles are never averaged), errors add by kind and code.
    init(runners: [LoadRunner]) {
        var statistics = RunStatistics()
        var scenario: ScenarioMetrics?
        for runner in runners {
            statistics.merge(runner.statistics)
            if let metrics = runner.scenarioMetrics {
                if scenario == nil { scenario = metrics } else { scenario?.merge(metrics) }
            }
        }
        self.statistics = statistics
        self.scenario = scenario
        measuredSeconds = runners.map(\.measuredSeconds).max() ?? 0
        threads = runners.map {
            ThreadPart(connections: $0.connections.count, completed: $0.statistics.completed, sent: $0.statistics.sent)
        }
        // getrusage is process-wide: from the earliest reading at a load's
        // start to the latest at a finish.
        let loaded = runners.filter { $0.loadStart > 0 && $0.finishedAt > $0.loadStart }
        if let start = loaded.map(\.loadStart).min(), let end = loaded.map(\.finishedAt).max(),
            let cpuStart = loaded.map(\.cpuAtLoadStart).min(), let cpuEnd = loaded.map(\.cpuAtFinish).max()
        {
            clientCPUShare = (cpuEnd - cpuStart) / (Double(end - start) / 1e9)
        } else {
            clientCPUShare = 0
        }
    }
}

/// Runs a scenario on `--threads` libuv loops, one ``LoadRunner`` each
/// with its ``LoadShare``, started together by a ``LoadStartBarrier``, and
/// merges what they measured. With one thread the runner runs on the
/// calling thread, as it always has.
enum ThreadedLoad {
    static func run(_ options: LoadOptions) throws -> LoadResult {
        let barrier = LoadStartBarrier(threads: options.threads)
        let runners = try LoadShare.split(options).map { share in
            try LoadRunner(options: options, scenario: makeScenario(options, share), share: share, startBarrier: barrier)
        }
        if runners.count == 1 {
            runners[0].run()
            return LoadResult(runners: runners)
        }
        let finished = DispatchGroup()
        for runner in runners {
            finished.enter()
            let thread = Thread {
                runner.run()
                finished.leave()
            }
            thread.name = "lectern-load loop \(runner.share.thread + 1)"
            thread.start()
        }
        finished.wait()
        return LoadResult(runners: runners)
    }

    static func makeScenario(_ options: LoadOptions, _ share: LoadShare) -> LoadScenario {
        switch options.scenario {
        case .raw: return RawScenario(options: options, share: share)
        case .tap: return TapScenario(options: options, share: share)
        case .mix: return MixScenario(options: options, share: share)
        case .fanout: return FanoutScenario(options: options, share: share)
        case .pubsub: return PubsubScenario(options: options, share: share)
        case .type: return TypewriterScenario(options: options, share: share)
        }
    }
}
