// Corpora.swift: the evaluation sets, loaded as SegmentationSamples.
import Foundation
import LecternText

enum Corpora {
    static func samples(file: String) -> [SegmentationSample] {
        guard let data = FileManager.default.contents(atPath: file) else {
            print("missing \(file)")
            return []
        }
        return SegmentationSample.parse(String(decoding: data, as: UTF8.self))
    }

    /// The kss sets: one gold sentence per line, a blank line ends a
    /// paragraph, and a paragraph's text is its lines concatenated as they are.
    static func kss(directory: String) -> [(name: String, samples: [SegmentationSample])] {
        let names = ["blogs_ko", "blogs_lee", "tweets", "wikipedia", "nested", "v_ending", "sample"]
        return names.compactMap { name in
            let path = directory + "/" + name + ".txt"
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            var samples: [SegmentationSample] = []
            var lines: [String] = []
            func flush() {
                let sentences = lines.filter { !$0.allSatisfy(\.isWhitespace) }
                if !sentences.isEmpty {
                    samples.append(SegmentationSample(language: Language("ko"), note: name,
                                                      paragraph: lines.joined(), sentences: sentences, line: 0))
                }
                lines = []
            }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
                let text = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
                if text.allSatisfy(\.isWhitespace) { flush() } else { lines.append(text) }
            }
            flush()
            return (name, samples)
        }
    }
}
