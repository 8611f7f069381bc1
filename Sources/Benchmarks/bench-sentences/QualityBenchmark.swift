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
        print("")
        _ = runUDDev(header: false)
    }

    /// The UD dev sets, each file's sentences joined into one text (the
    /// SaT/wtpsplit paper's scoring: the whole set, boundary F1). False,
    /// with a message, if the sets are not there.
    func runUDDev(header: Bool = true) -> Bool {
        if header { print("bench-sentences ud-dev (ICU \(ICUSentenceBreaker.icuVersion))") }
        let sets = Corpora.udDev(directory: arguments.udDevDirectory)
        guard !sets.isEmpty else {
            print("UD dev sets not found in \(arguments.udDevDirectory) (give --ud-dev DIR or LECTERN_UD_DEV)")
            return false
        }
        print("UD dev sets in \(arguments.udDevDirectory): each file one text, sentences joined by a space (none in ja, zh);")
        print("boundary P / R / F1 in white-space-free positions, end of text not counted\n")
        let width = 26
        print("file".padding(toLength: 22, withPad: " ", startingAt: 0) + "lang  "
              + Splitter.allCases.map { $0.title.padding(toLength: width, withPad: " ", startingAt: 0) }.joined())
        var sums = [Double](repeating: 0, count: Splitter.allCases.count * 3)
        func cells(_ values: [Double]) -> String {
            stride(from: 0, to: values.count, by: 3).map { i in
                String(format: "%.3f / %.3f / %.3f", values[i], values[i + 1], values[i + 2])
                    .padding(toLength: width, withPad: " ", startingAt: 0)
            }.joined()
        }
        for (name, sample) in sets {
            var values: [Double] = []
            for splitter in Splitter.allCases {
                let score = self.score([sample], with: splitter)
                values += [score.precision, score.recall, score.f1]
            }
            for i in values.indices { sums[i] += values[i] }
            print(name.padding(toLength: 22, withPad: " ", startingAt: 0)
                  + sample.language.code.padding(toLength: 6, withPad: " ", startingAt: 0) + cells(values))
        }
        print("average (\(sets.count) files)".padding(toLength: 28, withPad: " ", startingAt: 0)
              + cells(sums.map { $0 / Double(sets.count) }))
        if header, CommandLine.arguments.contains("--failures") {
            for (name, sample) in sets { printUDFailures(name, sample) }
        }
        return true
    }

    /// With `ud-dev --failures [N]` (last): Lectern's first wrong boundaries of
    /// each file, in the white-space-free text, ‖ marking the place.
    private func printUDFailures(_ name: String, _ sample: SegmentationSample) {
        // `--failures N` shows N of each kind (15 without a count).
        let limit = CommandLine.arguments.firstIndex(of: "--failures").flatMap { at in
            CommandLine.arguments.dropFirst(at + 1).first.flatMap { Int($0) } } ?? 15
        let utf16 = Array(sample.paragraph.utf16)
        let predicted = BoundaryScore.boundaries(atUTF16: Splitter.lectern.boundaries(sample, utf16: utf16), in: utf16)
        let gold = BoundaryScore.boundaries(ofSentences: sample.sentences)
        let scalars = Array(sample.paragraph.unicodeScalars.filter { !$0.properties.isWhitespace })
        func context(_ at: Int) -> String {
            let text = { (range: Range<Int>) in String(String.UnicodeScalarView(scalars[range])) }
            return text(max(0, at - 30)..<at) + " ‖ " + text(at..<min(scalars.count, at + 20))
        }
        let icu = BoundaryScore.boundaries(atUTF16: Splitter.icuStandard.boundaries(sample, utf16: utf16), in: utf16)
        for (label, positions) in [("false break", predicted.subtracting(gold)), ("missed break", gold.subtracting(predicted)),
                                   ("missed break ICU @ss=standard finds", gold.intersection(icu).subtracting(predicted)),
                                   ("false break ICU @ss=standard avoids", predicted.subtracting(gold).subtracting(icu))] {
            let sorted = positions.sorted()
            print("\n\(name): \(sorted.count) \(label)s" + (sorted.count > limit ? ", the first \(limit)" : ""))
            for at in sorted.prefix(limit) { print("  " + context(at)) }
        }
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
