// LatencySummary.swift: p50, p99 and max of a run's PING latencies.

struct LatencySummary {
    let p50: Double
    let p99: Double
    let max: Double

    /// Nearest-rank percentiles of `seconds`; nil when there are none.
    init?(_ seconds: [Double]) {
        guard !seconds.isEmpty else { return nil }
        let sorted = seconds.sorted()
        func rank(_ fraction: Double) -> Double {
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
        }
        p50 = rank(0.50)
        p99 = rank(0.99)
        max = sorted[sorted.count - 1]
    }
}
