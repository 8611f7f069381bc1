// LatencyHistogramTests.swift: the log-linear histogram's buckets, bounds and percentiles.

import LecternRandom
import Testing
@testable import lectern_load

@Suite struct LatencyHistogramTests {
    @Test func smallValuesAreExact() {
        var histogram = LatencyHistogram()
        for value in [0, 1, 2, 3, 255] as [UInt64] { histogram.record(value) }
        #expect(histogram.count == 5)
        #expect(histogram.minimum == 0)
        #expect(histogram.maximum == 255)
        #expect(histogram.value(atPercentile: 0) == 0)
        #expect(histogram.value(atPercentile: 60) == 2)
        #expect(histogram.value(atPercentile: 80) == 3)
        #expect(histogram.value(atPercentile: 100) == 255)
    }

    @Test func bucketsTileTheRangeWithoutGapsOrOverlaps() {
        let histogram = LatencyHistogram(subBucketBits: 4)
        var expectedLow: UInt64 = 0
        for index in 0..<(histogram.counts.count) {
            let low = histogram.lowestValue(inBucket: index)
            let high = histogram.highestValue(inBucket: index)
            #expect(low == expectedLow, "bucket \(index)")
            #expect(histogram.bucketIndex(of: low) == index)
            #expect(histogram.bucketIndex(of: high) == index)
            if high == .max { break }
            expectedLow = high + 1
        }
        #expect(histogram.bucketIndex(of: .max) == histogram.counts.count - 1)
    }

    @Test func relativeErrorIsWithinThePrecision() {
        let histogram = LatencyHistogram()   // 8 bits: 1/128
        var random = SplitMix64(seed: 7)
        for _ in 0..<10_000 {
            let value = random.next() >> (random.next() % 64)
            let index = histogram.bucketIndex(of: value)
            let low = histogram.lowestValue(inBucket: index)
            let high = histogram.highestValue(inBucket: index)
            #expect(low <= value && value <= high)
            #expect(Double(high - low) <= Double(low) / 128 + 1)
        }
    }

    @Test func percentilesMatchSortedValuesWithinPrecisionAndNeverUnderstate() {
        var histogram = LatencyHistogram()
        var random = SplitMix64(seed: 42)
        var values: [UInt64] = []
        for _ in 0..<100_000 {
            // Latency-like: mostly 100-300 µs, a tail to 50 ms.
            let tail = random.next() % 1000 == 0
            let value = tail ? 1_000_000 + random.next() % 49_000_000 : 100_000 + random.next() % 200_000
            values.append(value)
            histogram.record(value)
        }
        values.sort()
        for percentile in [50.0, 90, 99, 99.9, 99.99] {
            let rank = Int((percentile / 100 * Double(values.count)).rounded(.up)) - 1
            let exact = values[rank]
            let reported = histogram.value(atPercentile: percentile)
            #expect(reported >= exact, "p\(percentile)")
            #expect(Double(reported - exact) <= Double(exact) / 128 + 1, "p\(percentile)")
        }
        #expect(histogram.value(atPercentile: 100) == values.last)
        #expect(abs(histogram.mean - Double(values.reduce(0, +)) / Double(values.count)) < 1)
    }

    @Test func mergeEqualsRecordingEverythingInOne() {
        var a = LatencyHistogram(), b = LatencyHistogram(), both = LatencyHistogram()
        for value in stride(from: UInt64(1), to: 5_000_000, by: 997) {
            if value % 2 == 0 { a.record(value) } else { b.record(value) }
            both.record(value)
        }
        a.merge(b)
        #expect(a.counts == both.counts)
        #expect(a.count == both.count)
        #expect(a.minimum == both.minimum && a.maximum == both.maximum)
        #expect(a.value(atPercentile: 99) == both.value(atPercentile: 99))
    }

    @Test func emptyHistogramReportsZero() {
        let histogram = LatencyHistogram()
        #expect(histogram.isEmpty)
        #expect(histogram.value(atPercentile: 99) == 0)
        #expect(histogram.mean == 0)
    }
}
