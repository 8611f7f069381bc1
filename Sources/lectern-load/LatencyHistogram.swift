// LatencyHistogram.swift: an HDR-style log-linear histogram of durations.

/// Counts of non-negative values (nanoseconds) in log-linear buckets, the
/// scheme of HdrHistogram: values below 2^`subBucketBits` get one bucket
/// each; above that, every power-of-two range ("octave") is split into
/// 2^(`subBucketBits` − 1) equal buckets. A recorded value is therefore
/// known to within a relative error of 2^−(`subBucketBits` − 1) (0.78 % at
/// the default 8 bits) over the whole 64-bit range, with a fixed memory of
/// about 58 × 128 counters, and recording is a few integer instructions.
///
/// Percentiles report the highest value of the bucket that holds the
/// requested rank (clamped to the exact maximum), so they never understate
/// a latency. Count, minimum, maximum and mean are exact.
///
/// ```swift
/// var histogram = LatencyHistogram()
/// histogram.record(1_250_000)         // 1.25 ms in ns
/// histogram.value(atPercentile: 99)   // ≥ the true p99, within 0.78 %
/// ```
///
/// - Complexity: `record` O(1); `value(atPercentile:)` and `merge` O(buckets).
struct LatencyHistogram: Equatable, Sendable {
    let subBucketBits: Int
    private(set) var counts: [UInt64]
    private(set) var count: UInt64 = 0
    private(set) var minimum: UInt64 = .max
    private(set) var maximum: UInt64 = 0
    private(set) var sum: Double = 0

    /// - Parameter subBucketBits: precision; from 2 to 16.
    init(subBucketBits: Int = 8) {
        precondition((2...16).contains(subBucketBits), "subBucketBits must be 2...16")
        self.subBucketBits = subBucketBits
        let halfBuckets = 1 << (subBucketBits - 1)
        // Octave 0 holds 2^bits buckets; octaves 1...(64 - bits) hold half as many each.
        counts = Array(repeating: 0, count: (64 - subBucketBits + 2) * halfBuckets)
    }

    var isEmpty: Bool { count == 0 }
    var mean: Double { count == 0 ? 0 : sum / Double(count) }

    mutating func record(_ value: UInt64) {
        counts[bucketIndex(of: value)] &+= 1
        count += 1
        if value < minimum { minimum = value }
        if value > maximum { maximum = value }
        sum += Double(value)
    }

    /// Adds another histogram's counts (both must have the same precision).
    mutating func merge(_ other: LatencyHistogram) {
        precondition(other.subBucketBits == subBucketBits, "merging histograms of different precision")
        for index in other.counts.indices where other.counts[index] != 0 {
            counts[index] &+= other.counts[index]
        }
        count += other.count
        minimum = Swift.min(minimum, other.minimum)
        maximum = Swift.max(maximum, other.maximum)
        sum += other.sum
    }

    /// The smallest bucket upper bound at or above `percentile` % of the
    /// values (0 when empty). `percentile` 100 is the exact maximum.
    func value(atPercentile percentile: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        if percentile >= 100 { return maximum }
        let clamped = Swift.max(0, percentile)
        let rank = Swift.max(1, UInt64((clamped / 100 * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for index in counts.indices where counts[index] != 0 {
            seen += counts[index]
            if seen >= rank {
                return Swift.min(Swift.max(highestValue(inBucket: index), minimum), maximum)
            }
        }
        return maximum
    }

    /// The bucket a value falls in.
    func bucketIndex(of value: UInt64) -> Int {
        let linearLimit = UInt64(1) << UInt64(subBucketBits)
        if value < linearLimit { return Int(value) }
        let magnitude = 63 - value.leadingZeroBitCount   // position of the top bit
        let octave = magnitude - subBucketBits + 1       // ≥ 1
        let subBucket = Int(value >> UInt64(octave))      // in [2^(bits-1), 2^bits)
        return octave << (subBucketBits - 1) + subBucket
    }

    /// The lowest value that falls in bucket `index`.
    func lowestValue(inBucket index: Int) -> UInt64 {
        let linearLimit = 1 << subBucketBits
        if index < linearLimit { return UInt64(index) }
        let halfBuckets = 1 << (subBucketBits - 1)
        let octave = index / halfBuckets - 1
        let subBucket = index - octave * halfBuckets
        return UInt64(subBucket) << UInt64(octave)
    }

    /// The highest value that falls in bucket `index`.
    func highestValue(inBucket index: Int) -> UInt64 {
        let linearLimit = 1 << subBucketBits
        if index < linearLimit { return UInt64(index) }
        let halfBuckets = 1 << (subBucketBits - 1)
        let octave = index / halfBuckets - 1
        let low = lowestValue(inBucket: index)
        let width = UInt64(1) << UInt64(octave)
        return low &+ (width - 1)
    }
}
