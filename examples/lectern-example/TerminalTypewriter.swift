// TerminalTypewriter.swift: a typewriter stream played on standard output.

import Foundation
import LecternClient

/// Prints a document as its ``TypewriterStream`` reveals it: each tick
/// writes the text between the previous end and the new one, so the
/// terminal shows the reveal at the daemon's pace, grapheme by grapheme.
struct TerminalTypewriter {
    /// The document's exact text (from GET), which tick offsets index.
    let text: String
    /// The connection's offset unit, which tick offsets count.
    let units: OffsetUnit

    /// Plays `stream` to the end; returns how many ticks it took.
    func play(_ stream: TypewriterStream) async throws -> Int {
        var shown = text.startIndex
        var ticks = 0
        for try await event in stream {
            switch event {
            case .tick(let tick):
                ticks += 1
                guard let end = text.index(atOffset: tick.end, in: units), end > shown else { continue }
                write(String(text[shown..<end]))
                shown = end
            case .restart:
                write("\n[the text changed; starting over]\n")
                shown = text.startIndex
            case .sentence, .done:
                break
            }
        }
        write("\n")
        return ticks
    }

    /// Writes through stdio, flushed at once, so it interleaves with `print`.
    private func write(_ string: String) {
        print(string, terminator: "")
        fflush(stdout)
    }
}
