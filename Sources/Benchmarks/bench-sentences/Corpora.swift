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

    /// The UD dev sets (see their README): one JSON object a line,
    /// `{"lang": "de", "s": [...]}`. Each file becomes one sample, the whole
    /// set as one text: its sentences, trimmed, joined by one space (by
    /// nothing in Japanese and Chinese), as the SaT/wtpsplit paper scores.
    /// Empty if the directory is absent.
    static func udDev(directory: String) -> [(name: String, sample: SegmentationSample)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { return nil }
            var code: String?
            var sentences: [String] = []
            for line in data.split(separator: UInt8(ascii: "\n")) {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                      let lang = object["lang"] as? String, let list = object["s"] as? [String] else {
                    print("\(name): a line that is not {\"lang\": …, \"s\": […]}, skipped")
                    continue
                }
                code = code ?? lang
                sentences += list.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            guard let code, !sentences.isEmpty else { return nil }
            let separator = code == "ja" || code == "zh" ? "" : " "
            let sample = SegmentationSample(language: Language(code), note: name,
                                            paragraph: sentences.joined(separator: separator),
                                            sentences: sentences, line: 0)
            return (String(name.dropLast(".jsonl".count)), sample)
        }
    }
}
