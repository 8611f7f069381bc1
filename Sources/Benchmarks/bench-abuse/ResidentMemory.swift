// ResidentMemory.swift: a process's resident set, from /proc.

import Foundation

enum ResidentMemory {
    /// `VmRSS` of process `pid` in bytes, or nil if it cannot be read.
    static func bytes(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1024
    }
}

/// The largest resident set seen while it runs, sampled every 20 ms.
final class ResidentMemorySampler: @unchecked Sendable {
    private let stopping = Flag()
    private var worker: Worker?
    private var largest = 0

    init(pid: Int32) {
        worker = Worker { [self] in
            while !stopping.isSet {
                largest = max(largest, ResidentMemory.bytes(pid: pid) ?? 0)
                usleep(20_000)
            }
        }
    }

    /// Stops sampling; the largest resident set seen (bytes).
    func stop() -> Int {
        stopping.set()
        worker?.join(until: Monotonic.now() + 5)
        return largest
    }
}
