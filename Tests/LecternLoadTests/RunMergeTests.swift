// RunMergeTests.swift: several threads' figures merge into one report exactly.

import LecternRandom
import Testing
@testable import lectern_load

@Suite struct RunMergeTests {
    /// Three threads' histograms, merged, are the histogram of every sample
    /// recorded in one: same buckets, so the same percentiles (never averaged).
    @Test func mergedStatisticsEqualOneRecordingEverything() {
        var threads = [RunStatistics(), RunStatistics(), RunStatistics()]
        var everything = RunStatistics()
        var random = SplitMix64(seed: 9)
        for sample in 0..<30_000 {
            // Thread 2 is the slow one: its tail must survive the merge.
            let thread = sample % 3
            let value = thread == 2 && sample % 100 == 2 ? 40_000_000 + random.next() % 10_000_000 : 100_000 + random.next() % 300_000
            threads[thread].latency.record(value)
            threads[thread].completed += 1
            threads[thread].sent += 1
            everything.latency.record(value)
        }
        threads[0].errors.errorReply = 2
        threads[0].errors.byCode = ["UNKNOWN": 2]
        threads[1].errors.errorReply = 3
        threads[1].errors.byCode = ["UNKNOWN": 1, "RANGE": 2]
        threads[2].errors.timeout = 4
        threads[2].errors.note("timeout: connection 7")

        var merged = RunStatistics()
        for thread in threads { merged.merge(thread) }
        #expect(merged.latency.counts == everything.latency.counts)
        #expect(merged.latency.count == 30_000 && merged.completed == 30_000 && merged.sent == 30_000)
        #expect(merged.latency.minimum == everything.latency.minimum && merged.latency.maximum == everything.latency.maximum)
        for percentile in [50.0, 90, 99, 99.9] {
            #expect(merged.latency.value(atPercentile: percentile) == everything.latency.value(atPercentile: percentile))
        }
        // 1 % of a third of the samples is slow: p99.9 is in the tail, as one histogram says.
        #expect(merged.latency.value(atPercentile: 99.9) >= 40_000_000)
        #expect(merged.errors.errorReply == 5 && merged.errors.timeout == 4 && merged.errors.total == 9)
        #expect(merged.errors.byCode == ["UNKNOWN": 3, "RANGE": 2])
        #expect(merged.errors.samples == ["timeout: connection 7"])
    }

    @Test func mergingAnEmptyThreadChangesNothing() {
        var one = RunStatistics()
        for value in [5_000, 7_000, 9_000] as [UInt64] { one.latency.record(value) }
        var merged = one
        merged.merge(RunStatistics())
        #expect(merged.latency == one.latency)
    }

    @Test func scenarioFiguresMergeByWhatTheyAreComputedFrom() {
        func metrics(delivered: Double, due: Double, delays: [UInt64]) -> ScenarioMetrics {
            var histogram = LatencyHistogram()
            for delay in delays { histogram.record(delay) }
            return ScenarioMetrics(
                histograms: [("start delay", histogram)],
                figures: [
                    ("ticks delivered", .count(delivered)),
                    ("delivered share", .share(part: delivered, whole: due)),
                    ("start delay max (ms)", .milliseconds(histogram, percentile: 100)),
                ])
        }
        var merged = metrics(delivered: 90, due: 100, delays: [1_000_000])
        merged.merge(metrics(delivered: 300, due: 300, delays: [3_000_000, 2_000_000]))
        let figures = Dictionary(uniqueKeysWithValues: merged.figures.map { ($0.name, $0.value.number) })
        #expect(figures["ticks delivered"] == 390)
        #expect(figures["delivered share"] == 390.0 / 400)   // not the mean of 0.9 and 1
        #expect(figures["start delay max (ms)"] == 3)
        #expect(merged.histograms[0].histogram.count == 3)
    }
}
