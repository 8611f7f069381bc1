// bench-abuse: another reader's PING latency during each abuse of issue 16,
// and the daemon's memory during the memory attack before AUTH, beside
// the issue's targets. Each abuse gets a fresh lecternd (in memory, with a
// token file), started here on a free loopback port and stopped after.
//
//   scripts/bench-abuse              builds both in release and runs every abuse
//   bench-abuse [--lecternd PATH] [--only NAME,...] [--pings N] [--ping-every MS] [--ping-timeout S]

import Foundation

struct Options {
    var lecternd = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("lecternd")
    var abuses = Abuse.allCases
    var limits = AbuseLimits()

    init(_ arguments: [String]) {
        var rest = arguments[...]
        func value(_ flag: String) -> String {
            guard let text = rest.popFirst() else { fail("\(flag) needs a value") }
            return text
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--lecternd": lecternd = URL(fileURLWithPath: value(flag))
            case "--only":
                abuses = value(flag).split(separator: ",").map {
                    guard let abuse = Abuse(rawValue: String($0)) else {
                        fail("unknown abuse \($0); one of \(Abuse.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    return abuse
                }
            case "--pings":
                guard let n = Int(value(flag)), n > 0 else { fail("--pings takes a positive whole number") }
                limits.pings = n
            case "--ping-every":
                guard let ms = Double(value(flag)), ms >= 0, ms <= 10_000 else { fail("--ping-every takes milliseconds from 0 to 10000") }
                limits.pingEvery = ms / 1000
            case "--ping-timeout":
                guard let s = Double(value(flag)), s > 0 else { fail("--ping-timeout takes seconds") }
                limits.pingTimeout = s
            case "-h", "--help":
                print("usage: bench-abuse [--lecternd PATH] [--only NAME,...] [--pings N (1000)] [--ping-every MS (0)] [--ping-timeout S (20)]")
                print("abuses: \(Abuse.allCases.map(\.rawValue).joined(separator: ", "))")
                exit(0)
            default: fail("unknown flag \(flag) (try --help)")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-abuse: \(message)\n".utf8))
    exit(64)
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000) }
func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
func right(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

// Issue 16's targets for the closing note.
let p99Target = 0.010
let maxTarget = 0.050
let duringTarget = 100 * 1_048_576

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard FileManager.default.isExecutableFile(atPath: options.lecternd.path) else {
    fail("no lecternd at \(options.lecternd.path) (give --lecternd)")
}
signal(SIGPIPE, SIG_IGN)

print("bench-abuse: \(options.limits.pings) PINGs one at a time\(options.limits.pingEvery > 0 ? ", one every \(Int(options.limits.pingEvery * 1000)) ms," : "") from another connection during each abuse; lecternd \(options.lecternd.path)")
print("targets (issue 16): PING p99 < 10 ms and max < 50 ms; before AUTH, RSS < 100 MB during and within 10 % of baseline after")
print("")
print(padded("abuse", 62) + right("answered", 10) + right("p50 ms", 10) + right("p99 ms", 10) + right("max ms", 10)
    + "  " + padded("abusers", 22) + padded("RSS MB base/during/after", 26) + "targets")

var notes: [String] = []
var phaseNotes: [String] = []
for abuse in options.abuses {
    let daemon: BenchDaemon
    do {
        daemon = try BenchDaemon(executable: options.lecternd)
    } catch {
        notes.append("\(abuse.rawValue): \(error)")
        continue
    }
    let target = AbuseTarget(port: daemon.port, token: daemon.token, pid: daemon.process.processIdentifier)
    let result = AbuseRun.run(abuse, target: target, limits: options.limits)
    let crashed = !daemon.process.isRunning
    daemon.stop()

    if let failure = result.setupFailure {
        print(padded(abuse.summary(), 62) + "  not run: \(failure)")
        notes.append("\(abuse.rawValue): not run: \(failure)")
        continue
    }
    let latency = LatencySummary(result.pings.latencies)
    var abusers = "\(result.abusers.servedCount) served"
    if result.abusers.droppedCount > 0 { abusers += ", \(result.abusers.droppedCount) dropped" }
    if !result.abusers.unresolved.isEmpty { abusers += ", \(result.abusers.unresolved.count) neither" }
    var memory = "-"
    var met = result.pings.answered == options.limits.pings && !crashed
    met = met && result.abusers.unresolved.isEmpty
    if let latency {
        met = met && latency.p99 < p99Target && latency.max < maxTarget
    }
    if let m = result.memory {
        memory = "\(megabytes(m.baseline))/\(megabytes(m.during))/\(megabytes(m.after))"
        if abuse == .unauthenticatedBulk {
            met = met && m.during < duringTarget && Double(m.after) <= Double(m.baseline) * 1.1
        }
    }
    print(padded(abuse.summary(), 62)
        + right("\(result.pings.answered)/\(options.limits.pings)", 10)
        + right(latency.map { milliseconds($0.p50) } ?? "-", 10)
        + right(latency.map { milliseconds($0.p99) } ?? "-", 10)
        + right(latency.map { milliseconds($0.max) } ?? "-", 10)
        + "  " + padded(abusers, 22) + padded(memory, 26) + (met ? "met" : "MISSED"))
    let p = result.phases
    phaseNotes.append(String(format: "%@: prepare %.1f s, hold %.1f s, PINGs %.1f s, finish %.1f s", abuse.rawValue, p.prepare, p.hold, p.pings, p.finish))
    if let failure = result.pings.failure { notes.append("\(abuse.rawValue): \(failure)") }
    for report in result.abusers.unresolved.prefix(3) {
        if case .unresolved(let why) = report.outcome { notes.append("\(abuse.rawValue): \(report.role): \(why)") }
    }
    if result.abusers.unresolved.count > 3 { notes.append("\(abuse.rawValue): and \(result.abusers.unresolved.count - 3) more such") }
    if crashed { notes.append("\(abuse.rawValue): the daemon exited during the run") }
}
if !notes.isEmpty {
    print("")
    for note in notes { print("note: \(note)") }
}
print("")
for note in phaseNotes { print("time: \(note)") }
