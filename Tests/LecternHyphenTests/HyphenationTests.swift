// HyphenationTests.swift: Lectern's use of libhyphen, checked against
// PyHyphen (libhyphen's own C code built on its own, with its own
// character-set handling) on the same pattern files, in seven languages.

import Foundation
import LecternHyphen
import Testing

@Suite struct HyphenationTests {
    /// Words of each language, with capitals, accents and Cyrillic.
    static let words: [(language: String, words: [String])] = [
        ("en", ["hyphenation", "Highlighting", "typewriter", "paragraphs", "engineering", "international", "sentence", "reading", "together", "characters", "understanding", "a", "extraordinary"]),
        ("de", ["Silbentrennung", "Donaudampfschiffahrt", "Zeitungsleser", "Wörterbuch", "Bücher", "übersetzen", "Sprachverarbeitung", "Universität", "Geschwindigkeit"]),
        ("fr", ["hyphénation", "bibliothèque", "extraordinaire", "lecteur", "paragraphe", "développement", "compréhension", "internationale"]),
        ("es", ["separación", "biblioteca", "extraordinario", "lectura", "párrafo", "desarrollo", "comprensión", "internacional"]),
        ("ru", ["переносы", "библиотека", "чрезвычайный", "читатель", "предложение", "развитие", "понимание", "международный"]),
        ("it", ["sillabazione", "biblioteca", "straordinario", "lettura", "paragrafo", "sviluppo", "comprensione", "internazionale"]),
        ("pt", ["hifenização", "biblioteca", "extraordinário", "leitura", "parágrafo", "desenvolvimento", "compreensão", "internacional"]),
    ]

    /// PyHyphen's positions for every word, with the same file and minima.
    private func oraclePositions(_ path: String, _ words: [String], left: Int, right: Int) throws -> [[Int]] {
        let script = """
            import json, sys
            from itertools import accumulate
            from hyphen import hnj
            h = hnj.hyphenator_(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), 2, 2)
            def positions(word):
                try:
                    parts = h.apply(word.lower(), 0).split('=')
                except Exception:
                    return []
                return list(accumulate(len(p) for p in parts))[:-1]
            print(json.dumps([positions(w) for w in json.loads(sys.stdin.read())]))
            """
        let process = Process()
        // The python3 on PATH: the one scripts/install-deps gave pyphen to.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path, String(left), String(right)]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(words))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode([[Int]].self, from: data)
    }

    @Test(arguments: 0..<7)
    func breaksAgreeWithLibhyphensOwnBuild(_ index: Int) throws {
        let (language, words) = Self.words[index]
        let dictionary = try #require(HyphenationDictionary.forLanguage(language), "no dictionary for \(language)")
        for (left, right) in [(2, 3), (2, 2), (3, 3)] {
            let expected = try oraclePositions(dictionary.path, words, left: left, right: right)
            for (word, positions) in zip(words, expected) {
                #expect(dictionary.hyphenationPoints(in: word, leftMinimum: left, rightMinimum: right) == positions,
                        "\(language) \(word) left=\(left) right=\(right)")
            }
        }
        // Real breaks, not none: most of these words have some.
        #expect(words.filter { !dictionary.hyphenationPoints(in: $0).isEmpty }.count >= words.count / 2)
    }

    @Test func languageTagsFindTheirFiles() throws {
        #expect(HyphenationDictionary.forLanguage("en")?.path.hasSuffix("hyph_en_US.dic") == true)
        #expect(HyphenationDictionary.forLanguage("pt-BR")?.path.hasSuffix("hyph_pt_BR.dic") == true)
        #expect(HyphenationDictionary.forLanguage("de-CH")?.path.hasSuffix("hyph_de_CH.dic") == true)
        #expect(HyphenationDictionary.forLanguage("ru")?.path.hasSuffix("hyph_ru_RU.dic") == true)
        #expect(HyphenationDictionary.forLanguage("xx") == nil)
        #expect(HyphenationDictionary.forLanguage("") == nil)
        // Loaded once, shared.
        #expect(HyphenationDictionary.forLanguage("en") === HyphenationDictionary.forLanguage("en-US"))
    }

    @Test func whatIsNotAPlainWordIsLeftWhole() throws {
        let english = try #require(HyphenationDictionary.forLanguage("en"))
        for word in ["", "ab", "hyphen-ation", "co2emission", String(repeating: "hyphenation", count: 20), "İstanbulxx"] {
            #expect(english.hyphenationPoints(in: word).isEmpty, "\(word)")
        }
        // Offsets are UTF-16, in the word as given (an emoji-free capital start).
        #expect(english.hyphenationPoints(in: "HYPHENATION") == english.hyphenationPoints(in: "hyphenation"))
    }

    /// The dictionary is only read while hyphenating: many threads at once
    /// get the answers one thread gets.
    @Test func concurrentHyphenationAgrees() throws {
        let german = try #require(HyphenationDictionary.forLanguage("de"))
        let words = Self.words[1].words
        let alone = words.map { german.hyphenationPoints(in: $0) }
        let lock = NSLock()
        var disagreements = 0
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 where words.map({ german.hyphenationPoints(in: $0) }) != alone {
                lock.lock(); disagreements += 1; lock.unlock()
            }
        }
        #expect(disagreements == 0)
    }
}
