// MonotonicClock.swift: nanosecond timestamps for latency measurement.

import CUV

/// Nanoseconds on the monotonic clock (`uv_hrtime`, CLOCK_MONOTONIC): every
/// send time, reply time and schedule in the tool is one of these.
enum MonotonicClock {
    static func now() -> UInt64 { uv_hrtime() }

    static let nanosecondsPerSecond: UInt64 = 1_000_000_000
    static let nanosecondsPerMillisecond: UInt64 = 1_000_000

    /// `seconds` as nanoseconds, rounded down (negative values are 0).
    static func nanoseconds(seconds: Double) -> UInt64 {
        seconds <= 0 ? 0 : UInt64(seconds * Double(nanosecondsPerSecond))
    }
}
