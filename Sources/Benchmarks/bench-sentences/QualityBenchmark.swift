// QualityBenchmark.swift: Lectern's reader mode beside ICU on every set.
import Foundation
import LecternText

/// The splitters compared, each turning a paragraph into boundary offsets.
enum Splitter: CaseIterable {
    case lectern, icuPlain, icuStandard

    var title: String {
        switch self {
        case .lectern: return "Lectern reader"
        case .icuPlain: return "ICU"
        case .icuStandard: return "ICU @ss=standard"
        }
    }

    func boundaries(_ sample: SegmentationSample, utf16: [UInt16]) -> [Int] {
        switch self {
        case .lectern:
            let table = SentenceTable(document: DocumentText(sample.paragraph), mode: .reader, language: sample.language)
            return table.map(\.range.lowerBound)
        case .icuPlain:
            return ICUSentenceBreaker(locale: sample.language.code)?.boundaries(in: utf16) ?? []
        case .icuStandard:
            return ICUSentenceBreaker(locale: sample.language.code + "@ss=standard")?.boundaries(in: utf16) ?? []
        }
    }
}

struct QualityBenchmark {
    let arguments: BenchArguments

    func run() {
        print("bench-sentences quality (ICU \(ICUSentenceBreaker.icuVersion))")
        print("boundary P/R/F1 in white-space-free positions, paragraph end not counted; exact = paragraphs with every boundary right\n")
        let golden = Corpora.samples(file: arguments.dataDirectory + "/golden.txt")
        var sets: [(String, [SegmentationSample])] = [("golden (all)", golden)]
        for code in ["en", "ru", "ko", "ja", "zh", "de", "fr", "es"] {
            sets.append(("golden \(code)", golden.filter { $0.language.code == code }))
        }
        sets.append(("pySBD English Golden Rules", Corpora.samples(file: arguments.dataDirectory + "/pysbd-golden-en.txt")))
        let kss = Corpora.kss(directory: arguments.kssDirectory)
        if kss.isEmpty { print("kss sets not found in \(arguments.kssDirectory)") }
        sets.append(("kss-ko (all 7 sets)", kss.flatMap(\.samples)))
        for (name, samples) in kss { sets.append(("  kss \(name)", samples)) }

        let header = "set".padding(toLength: 36, withPad: " ", startingAt: 0)
            + Splitter.allCases.map { $0.title.padding(toLength: 36, withPad: " ", startingAt: 0) }.joined()
        print(header)
        for (name, samples) in sets where !samples.isEmpty {
            var row = name.padding(toLength: 36, withPad: " ", startingAt: 0)
            for splitter in Splitter.allCases {
                let score = self.score(samples, with: splitter)
                let cell = String(format: "%d/%d  F1 %.3f (P %.2f R %.2f)", score.exact, score.paragraphs,
                                  score.f1, score.precision, score.recall)
                row += cell.padding(toLength: 36, withPad: " ", startingAt: 0)
            }
            print(row)
        }
        if CommandLine.arguments.contains("--failures") { printFailures(sets) }
    }

    private func score(_ samples: [SegmentationSample], with splitter: Splitter) -> BoundaryScore {
        var score = BoundaryScore()
        for sample in samples {
            let utf16 = Array(sample.paragraph.utf16)
            let predicted = BoundaryScore.boundaries(atUTF16: splitter.boundaries(sample, utf16: utf16), in: utf16)
            score.add(predicted: predicted, gold: BoundaryScore.boundaries(ofSentences: sample.sentences))
        }
        return score
    }

    /// With --failures: Lectern's wrong paragraphs, for tuning.
    private func printFailures(_ sets: [(String, [SegmentationSample])]) {
        for (name, samples) in sets where !name.hasPrefix("golden (") && !name.hasPrefix("kss-ko") {
            for sample in samples {
                let document = DocumentText(sample.paragraph)
                let table = SentenceTable(document: document, mode: .reader, language: sample.language)
                let got = table.map { document.text(in: $0.content) }
                if BoundaryScore.boundaries(ofSentences: got) != BoundaryScore.boundaries(ofSentences: sample.sentences) {
                    print("\n✘ \(name) \(sample.note) line \(sample.line)")
                    print("  want: " + sample.sentences.joined(separator: " ‖ "))
                    print("  got:  " + got.joined(separator: " ‖ "))
                }
            }
        }
    }
}
