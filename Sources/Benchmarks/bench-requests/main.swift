// bench-requests: lecternd's CPU per TAP (and per PING, for reference),
// measured in process over a Unix socketpair, with no load generator
// competing for the cores. For comparing two builds of the daemon; the
// figures against Redis come from scripts/bench-vs-redis.
//
//   swift build -c release --product bench-requests
//   .build/release/bench-requests [--rounds N] [--depth D] [--repeats R]

import Glibc
import LecternServerHarness

struct Options {
    var rounds = 20_000
    var depth = 16
    var repeats = 5
    /// Only this request (TAP or PING), for profiles and probe counts.
    var only: String?

    init(_ arguments: [String]) {
        var rest = arguments[...]
        func value(_ name: String) -> Int {
            guard let text = rest.popFirst(), let number = Int(text), number > 0 else {
                fail("\(name) needs a positive whole number")
            }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--rounds": rounds = value(flag)
            case "--depth": depth = value(flag)
            case "--repeats": repeats = value(flag)
            case "--only":
                guard let name = rest.popFirst()?.uppercased(), ["TAP", "PING"].contains(name) else { fail("--only takes TAP or PING") }
                only = name
            case "-h", "--help":
                print("usage: bench-requests [--rounds N (20000)] [--depth D (16)] [--repeats R (5)] [--only TAP|PING]")
                exit(0)
            default: fail("unknown flag \(flag) (try --help)")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    fputs("bench-requests: \(message)\n", stderr)
    exit(2)
}

let options = Options(Array(CommandLine.arguments.dropFirst()))

let text = """
    The lamp on the desk was still warm when she came back. Nobody had touched the book, \
    but the page had turned on its own. She read the first line twice. It said what she \
    had feared: the river would rise before morning. Outside, the wind moved the shutters \
    in slow, patient knocks. She marked the place with a pencil and kept reading.
    """

let bench: RequestPathBenchmark
do { bench = try RequestPathBenchmark() } catch { fail("\(error)") }

let setup = Array("PUT bench lang=en {\(text.utf8.count)}\n".utf8) + Array(text.utf8)
    + Array("\nVIEW bench width=320 size=17 font=\"DejaVu Sans\"\n".utf8)
guard bench.exchange(setup, finalLines: 2) != nil, let linesReply = bench.exchange(Array("LINES bench\n".utf8), finalLines: 1)
else { fail("the daemon did not answer PUT, VIEW and LINES") }

/// Points across each line of the view, vertically centred.
var points: [String] = []
for line in String(decoding: linesReply, as: UTF8.self).split(separator: "\n") where line.hasPrefix("* line ") {
    var fields: [Substring: Double] = [:]
    for word in line.split(separator: " ") {
        guard let equals = word.firstIndex(of: "=") else { continue }
        fields[word[..<equals]] = Double(word[word.index(after: equals)...])
    }
    guard let top = fields["top"], let height = fields["height"], let x = fields["x"], let width = fields["width"] else { continue }
    for k in 1..<8 {
        let px = x + width * Double(k) / 8
        points.append("\((px * 100).rounded() / 100) \(((top + height / 2) * 100).rounded() / 100)")
    }
}
guard !points.isEmpty else { fail("LINES gave no lines") }

func batch(_ line: (Int) -> String) -> [UInt8] {
    (0..<options.depth).flatMap { Array((line($0) + "\n").utf8) }
}

/// The run of median wall time of `repeats` runs of `rounds` batches
/// (the one thread never waits, so wall time is its CPU time plus what
/// the hypervisor took).
func measure(_ name: String, _ batches: [[UInt8]]) -> (median: RequestPathBenchmark.Measurement, fastest: RequestPathBenchmark.Measurement) {
    _ = bench.measure(batches, finalLines: options.depth, rounds: max(1, options.rounds / 10))  // warm-up
    var runs: [RequestPathBenchmark.Measurement] = []
    for _ in 0..<options.repeats {
        guard let run = bench.measure(batches, finalLines: options.depth, rounds: options.rounds) else {
            fail("\(name): the daemon stopped answering")
        }
        runs.append(run)
    }
    runs.sort { $0.wallSeconds < $1.wallSeconds }
    return (runs[runs.count / 2], runs[0])
}

// TAP batches cover every point in turn, so that the taps land across the whole text.
let tapBatches = stride(from: 0, to: points.count, by: options.depth).map { offset in
    batch { "TAP bench \(points[(offset + $0) % points.count])" }
}

print("bench-requests: \(options.depth) requests per write, \(options.rounds) writes per run, median of \(options.repeats) runs")
print("(in process over a Unix socketpair: the daemon's CPU plus a one-thread client's write, read and line scan)")
print("")
print("request   wall µs/req  user µs/req  kernel µs/req  reply bytes  fastest run µs/req")
for (name, batches) in [("PING", [batch { _ in "PING" }]), ("TAP", tapBatches)] where options.only.map({ $0 == name }) ?? true {
    let (run, fastest) = measure(name, batches)
    let n = Double(run.requests)
    print(name.padding(toLength: 8, withPad: " ", startingAt: 0)
        + "  " + format(run.wallSeconds * 1e6 / n).leftPad(11)
        + "  " + format(run.userSeconds * 1e6 / n).leftPad(11)
        + "  " + format(run.systemSeconds * 1e6 / n).leftPad(13)
        + "  " + String(Int((Double(run.replyBytes) / n).rounded())).leftPad(11)
        + "  " + format(fastest.wallSeconds * 1e6 / n).leftPad(18))
}

func format(_ value: Double) -> String {
    let hundredths = Int((value * 1000).rounded())
    let fraction = String(hundredths % 1000)
    return "\(hundredths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

extension String {
    func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
