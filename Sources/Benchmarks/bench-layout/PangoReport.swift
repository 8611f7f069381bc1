// PangoReport.swift: runs the Pango harness (benchmarks/pango/harness.c) and parses what it prints.
import Foundation

/// The Pango side of one benchmark case.
struct PangoReport {
    var values: [String: String] = [:]
    /// Line starts, UTF-8 byte offsets.
    var lineStarts: [Int] = []
    /// Per grapheme: byte offset, line number, centre x, Pango's hit there (byte offset).
    var glyphs: [(index: Int, line: Int, x: Double, hit: Int)] = []

    func number(_ key: String) -> Double? { values[key].flatMap(Double.init) }

    /// Runs `harness` with the benchmark's arguments; nil (with a message on
    /// stderr) when it cannot be run or fails.
    static func run(harness: String, arguments: [String]) -> PangoReport? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: harness)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch {
            FileHandle.standardError.write(Data("bench-layout: cannot run \(harness): \(error)\n".utf8))
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            FileHandle.standardError.write(Data("bench-layout: \(harness) exited with \(process.terminationStatus)\n".utf8))
            return nil
        }
        var report = PangoReport()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.first == "line", fields.count == 3, let start = Int(fields[1]) {
                report.lineStarts.append(start)
            } else if fields.first == "g", fields.count == 5, let index = Int(fields[1]), let number = Int(fields[2]),
                      let x = Double(fields[3]), let hit = Int(fields[4]) {
                report.glyphs.append((index, number, x, hit))
            } else if let equals = line.firstIndex(of: "=") {
                report.values[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        return report
    }
}
