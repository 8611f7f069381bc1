// PacerThread.swift: wakes the loop at each scheduled send time, to the microsecond.

import CUV
import Foundation
import Synchronization

/// The open-loop schedule's clock. libuv timers count whole milliseconds,
/// which would add up to a millisecond of the client's own lateness to every
/// latency, and spinning the loop on an idle handle burns the core the
/// server needs. So a thread sleeps with `clock_nanosleep` (absolute
/// CLOCK_MONOTONIC deadlines, the clock of `uv_hrtime`) until each
/// scheduled time, then wakes the loop with `uv_async_send`; the loop sends
/// every request due. Wake-ups that come while the loop is busy coalesce.
///
/// At high rates a wake-up per scheduled time costs the client a context
/// switch per request (at 74,000/s the pacer alone took a sixth of the
/// client's core, and the client fell a millisecond behind its schedule).
/// So wake-ups are at least `minimumWakeInterval` apart (`--wake-every`,
/// 50 µs): a request due in between waits for the next one, and that wait
/// counts in its latency, since latency is measured from the scheduled time.
///
/// The thread touches nothing but the async handle and its own schedule.
/// ``stop()`` must return before the async handle is closed.
final class PacerThread: @unchecked Sendable {
    private let wake: UnsafeMutablePointer<uv_async_t>
    private let start: UInt64
    private let interval: Double
    private let firstSlot: UInt64
    private let slotStride: UInt64
    private let end: UInt64
    private let minimumWakeInterval: UInt64
    private let stopped = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)

    /// Wakes at `start + k × interval` for k = `firstSlot`, `firstSlot` +
    /// `slotStride`, … while before `end`: with `--threads` N, thread t's
    /// pacer keeps the slots t, t + N, … of the one schedule (the times are
    /// computed as the runner computes them, to the nanosecond).
    init(wake: UnsafeMutablePointer<uv_async_t>, start: UInt64, interval: Double,
         firstSlot: UInt64 = 0, slotStride: UInt64 = 1, end: UInt64, minimumWakeInterval: UInt64 = 0) {
        precondition(slotStride > 0 && firstSlot < slotStride, "a pacer keeps one residue of the slots")
        self.wake = wake
        self.start = start
        self.interval = interval
        self.firstSlot = firstSlot
        self.slotStride = slotStride
        self.end = end
        self.minimumWakeInterval = minimumWakeInterval
    }

    func run() {
        let thread = Thread { [self] in
            pace()
            exited.signal()
        }
        thread.name = "lectern-load pacer"
        thread.start()
    }

    /// Ends the thread and waits for it (at most one sleep slice, 20 ms).
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        exited.wait()
    }

    private static let slice: UInt64 = 20_000_000

    private func pace() {
        var slot = firstSlot
        var earliest: UInt64 = 0
        while !stopped.load(ordering: .acquiring) {
            let scheduled = start + UInt64(Double(slot) * interval)
            guard scheduled < end else { return }
            // Never later than the end: the last requests are due before it.
            let due = min(max(scheduled, earliest), end)
            let now = MonotonicClock.now()
            if due > now {
                sleep(until: min(due, now + Self.slice))
                continue
            }
            uv_async_send(wake)
            earliest = now + minimumWakeInterval
            // Everything due by now is sent by this wake-up; sleep to the next slot (of ours).
            let next = UInt64(Double(MonotonicClock.now() - start) / interval) + 1
            slot = next + (firstSlot + slotStride - next % slotStride) % slotStride
        }
    }

    private func sleep(until deadline: UInt64) {
        var time = timespec(
            tv_sec: Int(deadline / MonotonicClock.nanosecondsPerSecond),
            tv_nsec: Int(deadline % MonotonicClock.nanosecondsPerSecond))
        _ = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil)
    }
}
