// BenchArguments.swift: the benchmark's flags and where its data lives.
import Foundation

struct BenchArguments {
    let command: String
    /// Lectern's golden sets (golden.txt, pysbd-golden-en.txt).
    let dataDirectory: String
    /// The kss Korean sets (see their README for the scoring).
    let kssDirectory: String
    /// The UD dev sets (--ud-dev, else $LECTERN_UD_DEV, else
    /// ../shared/benchmarks/ud-dev beside the repository).
    let udDevDirectory: String
    /// Size of the speed benchmark's text.
    let bytes: Int
    let rounds: Int

    init<S: Sequence>(_ arguments: S) where S.Element == String {
        let list = Array(arguments)
        command = list.first ?? ""
        var values: [String: String] = [:]
        var i = 1
        while i + 1 < list.count {
            values[list[i]] = list[i + 1]
            i += 2
        }
        // Sources/Benchmarks/bench-sentences/BenchArguments.swift → repository root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        dataDirectory = values["--data"] ?? root.appendingPathComponent("Tests/LecternTextData").path
        kssDirectory = values["--kss"] ?? root.appendingPathComponent("../shared/benchmarks/kss-ko").standardized.path
        udDevDirectory = values["--ud-dev"] ?? ProcessInfo.processInfo.environment["LECTERN_UD_DEV"]
            ?? root.appendingPathComponent("../shared/benchmarks/ud-dev").standardized.path
        bytes = values["--bytes"].flatMap { Int($0) } ?? 1_000_000
        rounds = values["--rounds"].flatMap { Int($0) } ?? 7
    }
}
