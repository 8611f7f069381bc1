// SpeedBenchmark.swift: MB/s to build index maps and sentence tables,
// beside ICU's raw sentence iterator, on ~1 MB of multilingual text.
import Foundation
import LecternText

struct SpeedBenchmark {
    let arguments: BenchArguments

    /// One timed case: a label, the megabytes it counts, and the work.
    private struct Case {
        let label: String
        let megabytes: Double
        let body: () -> Int
    }

    func run() {
        let bytes = corpus()
        let utf16 = Array(String(decoding: bytes, as: UTF8.self).utf16)
        let megabytes = Double(bytes.count) / 1_000_000
        print("bench-sentences speed (ICU \(ICUSentenceBreaker.icuVersion)): \(bytes.count) UTF-8 bytes, "
              + "\(utf16.count) UTF-16 units, best of \(arguments.rounds) rounds; MB/s of UTF-8 input")
        print("(rounds are interleaved: each round times every case once, so a busy moment on a shared "
              + "machine slows both sides alike)")
        var cases: [Case] = []
        func add(_ label: String, megabytes: Double = megabytes, _ body: @escaping () -> Int) {
            cases.append(Case(label: label, megabytes: megabytes, body: body))
        }
        add("ICU raw sentence iterator (en, UTF-16 given)") {
            ICUSentenceBreaker(locale: "en")?.boundaries(in: utf16).count ?? 0
        }
        add("ICU raw sentence iterator (en@ss=standard)") {
            ICUSentenceBreaker(locale: "en@ss=standard")?.boundaries(in: utf16).count ?? 0
        }
        add("ICU raw (en), UTF-8 → UTF-16 by String included") {
            let units = Array(String(decoding: bytes, as: UTF8.self).utf16)
            return ICUSentenceBreaker(locale: "en")?.boundaries(in: units).count ?? 0
        }
        add("Lectern DocumentText (validate, UTF-16, index maps)") {
            (try? DocumentText(utf8: bytes))?.utf16.count ?? 0
        }
        add("Lectern DocumentText + SentenceTable uax29") {
            guard let document = try? DocumentText(utf8: bytes) else { return 0 }
            return SentenceTable(document: document, mode: .uax29).count
        }
        for code in ["en", "ko"] {
            add("Lectern DocumentText + SentenceTable reader (\(code))") {
                guard let document = try? DocumentText(utf8: bytes) else { return 0 }
                return SentenceTable(document: document, mode: .reader, language: Language(code)).count
            }
        }
        add("Lectern DocumentText + SentenceTable reader (detected)") {
            guard let document = try? DocumentText(utf8: bytes) else { return 0 }
            return SentenceTable(document: document, mode: .reader).count
        }
        // The same words as lines of ten: many short paragraphs, each
        // detected on its own.
        let shortLines = tenWordLines(bytes)
        let shortUTF16 = Array(String(decoding: shortLines, as: UTF8.self).utf16)
        let shortMegabytes = Double(shortLines.count) / 1_000_000
        add("ICU raw sentence iterator (en), 10-word lines", megabytes: shortMegabytes) {
            ICUSentenceBreaker(locale: "en")?.boundaries(in: shortUTF16).count ?? 0
        }
        add("Lectern DocumentText + SentenceTable reader (detected), 10-word lines", megabytes: shortMegabytes) {
            guard let document = try? DocumentText(utf8: shortLines) else { return 0 }
            return SentenceTable(document: document, mode: .reader).count
        }
        if let document = try? DocumentText(utf8: bytes) {
            for code in ["en", "ko"] {
                add("  of which SentenceTable reader (\(code)) alone") {
                    SentenceTable(document: document, mode: .reader, language: Language(code)).count
                }
            }
        }
        if let document = try? DocumentText(utf8: bytes) {
            let languages = ParagraphLanguages(document: document, hint: nil)
            print("detection: \(document.paragraphs.count) paragraphs, \(languages.unitsRead) of \(document.utf16.count) units read; "
                  + "languages \(languages.distinct.map(\.tag).joined(separator: ","))")
            add("  of which ParagraphLanguages (detected) alone") {
                ParagraphLanguages(document: document, hint: nil).count
            }
            add("  of which ParagraphLanguages (en hint) alone") {
                ParagraphLanguages(document: document, hint: .english).count
            }
        }
        for (label, sample) in [("ASCII only", asciiOnly(bytes)), ("Hangul only", hangulOnly(bytes))] {
            add("  DocumentText on \(label) (\(sample.count) bytes)", megabytes: Double(sample.count) / 1_000_000) {
                (try? DocumentText(utf8: sample))?.utf16.count ?? 0
            }
        }

        var best = [Double](repeating: .infinity, count: cases.count)
        var sink = 0
        for _ in 0..<arguments.rounds {
            for (index, timed) in cases.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                sink &+= timed.body()
                best[index] = min(best[index], Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
        }
        var rates: [String: Double] = [:]
        for (index, timed) in cases.enumerated() {
            rates[timed.label] = timed.megabytes / best[index]
            print(timed.label.padding(toLength: 56, withPad: " ", startingAt: 0)
                  + String(format: "%8.1f MB/s  %7.2f ms", timed.megabytes / best[index], best[index] * 1000))
        }
        // The target (issue 3): building a document's index maps and sentence
        // table, in either mode, at least half as fast as ICU's raw iterator.
        if let icu = rates["ICU raw sentence iterator (en, UTF-16 given)"] {
            print("ratio to the ICU raw iterator (en, UTF-16 given), DocumentText + SentenceTable; target ≥ 0.50:")
            for mode in ["uax29", "reader (en)", "reader (ko)", "reader (detected)"] {
                guard let rate = rates["Lectern DocumentText + SentenceTable \(mode)"] else { continue }
                let ratio = rate / icu
                print("  \(mode)".padding(toLength: 20, withPad: " ", startingAt: 0)
                      + String(format: "%5.2f×  %@", ratio, ratio >= 0.5 ? "meets the target" : "below the target"))
            }
        }
        if let icu = rates["ICU raw sentence iterator (en), 10-word lines"],
           let rate = rates["Lectern DocumentText + SentenceTable reader (detected), 10-word lines"] {
            print("  reader (detected) on 10-word lines, to ICU on the same lines: "
                  + String(format: "%5.2f×  %@", rate / icu, rate / icu >= 0.5 ? "meets the target" : "below the target"))
        }
        print("(checksum \(sink))")
    }

    /// The words of `bytes`, ten to a line.
    private func tenWordLines(_ bytes: [UInt8]) -> [UInt8] {
        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        var text = ""
        for (index, word) in words.enumerated() {
            text += word
            text += index % 10 == 9 ? "\n" : " "
        }
        return Array(text.utf8)
    }

    private func asciiOnly(_ bytes: [UInt8]) -> [UInt8] { bytes.filter { $0 < 0x80 } }

    private func hangulOnly(_ bytes: [UInt8]) -> [UInt8] {
        let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
        return Array(String(String.UnicodeScalarView(scalars.filter { (0xAC00...0xD7A3).contains($0.value) || $0 == " " })).utf8)
    }

    /// The golden sets, the pySBD rules and the kss sets, one paragraph per
    /// line, repeated to `arguments.bytes`.
    private func corpus() -> [UInt8] {
        var paragraphs = Corpora.samples(file: arguments.dataDirectory + "/golden.txt").map(\.paragraph)
        paragraphs += Corpora.samples(file: arguments.dataDirectory + "/pysbd-golden-en.txt").map(\.paragraph)
        paragraphs += Corpora.kss(directory: arguments.kssDirectory).flatMap(\.samples).map(\.paragraph)
        let unit = Array((paragraphs.joined(separator: "\n") + "\n").utf8)
        guard !unit.isEmpty else { return Array(repeating: 0x61, count: arguments.bytes) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(arguments.bytes + unit.count)
        while bytes.count < arguments.bytes { bytes += unit }
        return bytes
    }
}
