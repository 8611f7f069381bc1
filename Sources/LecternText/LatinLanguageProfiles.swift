// LatinLanguageProfiles.swift: telling Latin-script languages apart by
// their commonest function words (stop-word profiles) and a few letters.

/// A stop-word detector for Latin-script text, the method of the classic
/// "small words" language guessers (Grefenstette 1995; ICU and CLD are the
/// heavier references): every language's few dozen most frequent function
/// words are a large share of any of its texts and rare in the others.
///
/// A word (a run of letters, lower-cased) listed by k of the languages
/// counts 1/k for each, so the words they share ("de", "a", "in") split
/// their evidence. A few letters and pairs that mark one language or two
/// (ß, ñ, ã, "ij") count a little more. The best language wins when its
/// score reaches ``minimumEvidence`` and leads the runner-up by
/// ``minimumLead``; otherwise nothing is decided (the caller keeps English,
/// or the hint).
enum LatinLanguageProfiles {
    /// The languages told apart, in the order of the score arrays.
    static let codes = ["en", "de", "fr", "es", "pt", "it", "nl"]

    /// How many words are read at most: bounded work whatever the text.
    static let wordSample = 2000
    /// The score the winner needs (a word shared by no other language is 1).
    static let minimumEvidence = 3.0
    /// How much the winner's score must exceed the runner-up's, as a factor.
    static let minimumLead = 1.25
    /// Stop words are short; longer words are skipped without a lookup.
    static let longestStopWord = 8

    /// The most frequent function words of each language (articles,
    /// prepositions, pronouns, conjunctions, auxiliaries), lower case.
    static let stopWords: [String: [String]] = [
        "en": """
            the of and to a in is it you that he was for on are with as i his they be at one have \
            this from or had by not but what some we can out were all there when up your how said \
            an each she which do their if will about then them would so these her him has been who \
            its could into than more my
            """.wordList,
        "de": """
            der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch \
            es an werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über \
            einen so zum war haben nur oder aber vor zur bis mehr durch man sein wurde sei ich \
            wir ihr dann kann wenn schon sehr
            """.wordList,
        "fr": """
            de la le et les des en un du une que est pour qui dans par plus pas au sur ne se ce \
            il sont avec son elle nous vous ils mais ou comme été cette ses aux leur tout fait \
            était je on très être où sa peut aussi même entre deux après sans
            """.wordList,
        "es": """
            de la que el en y a los del se las por un para con no una su al lo como más pero \
            sus le ya o fue este ha sí porque esta son entre está cuando muy sin sobre ser \
            también me hasta hay donde han desde todo nos durante uno ni contra ese eso ella
            """.wordList,
        "pt": """
            de a o que e do da em um para é com não uma os no se na por mais as dos como mas \
            foi ao ele das tem à seu sua ou ser quando muito há nos já está eu também só pelo \
            pela até isso ela entre era depois sem mesmo aos ter seus quem nas você são
            """.wordList,
        "it": """
            di e il la che a per in un è non una del le si da i sono con gli al della lo come \
            più ma anche ha dei nel alla io questo ci se ne delle mi cosa tutto suo era sua \
            molto nella essere quando già dal questa sul stato degli hanno poi
            """.wordList,
        "nl": """
            de en van het een in is dat op te zijn met voor niet die aan er ook als bij door \
            maar om nog wordt uit naar dan of werd worden wel al was deze kan hij ze zo ik \
            heeft hebben meer tot geen over wat we veel hun
            """.wordList,
    ]

    /// Each stop word's score per language: 1/k for a word k languages list.
    static let weights: [String: [Double]] = {
        var table: [String: [Double]] = [:]
        for (index, code) in codes.enumerated() {
            for word in stopWords[code] ?? [] {
                var row = table[word] ?? [Double](repeating: 0, count: codes.count)
                row[index] = 1
                table[word] = row
            }
        }
        return table.mapValues { row in
            let k = row.reduce(0, +)
            return row.map { $0 / k }
        }
    }()

    /// Letters that mark languages, with the score of each occurrence:
    /// ß and ä ö ü are German (ü also Spanish, rarely); ñ ¿ ¡ Spanish;
    /// ã õ Portuguese; ç Portuguese and French; è ì ò Italian and French
    /// (ì ò only Italian); ê ô â Portuguese and French; œ French.
    static func letterHint(_ c: UInt16, into scores: inout [Double]) {
        let en = 0, de = 1, fr = 2, es = 3, pt = 4, it = 5
        _ = en
        switch c {
        case 0xDF: scores[de] += 1                                   // ß
        case 0xE4, 0xF6, 0xFC, 0xC4, 0xD6, 0xDC: scores[de] += 0.5   // ä ö ü
        case 0xF1, 0xD1, 0xBF, 0xA1: scores[es] += 1                 // ñ ¿ ¡
        case 0xE3, 0xF5, 0xC3, 0xD5: scores[pt] += 1                 // ã õ
        case 0xE7, 0xC7: scores[pt] += 0.25; scores[fr] += 0.25      // ç
        case 0xE8, 0xC8: scores[it] += 0.25; scores[fr] += 0.25      // è
        case 0xEC, 0xF2: scores[it] += 0.5                           // ì ò
        case 0xEA, 0xF4, 0xE2: scores[pt] += 0.25; scores[fr] += 0.25 // ê ô â
        case 0x153, 0x152: scores[fr] += 1                           // œ
        default: break
        }
    }

    /// The language of `text`'s words, or nil when the evidence is too
    /// thin or too even to decide.
    /// - Complexity: O(n) in the text, stopping after ``wordSample`` words.
    static func detect(in text: UnsafeBufferPointer<UInt16>) -> String? {
        var scores = [Double](repeating: 0, count: codes.count)
        var word: [UInt16] = []
        word.reserveCapacity(longestStopWord)
        var length = 0
        var words = 0
        let nl = 6
        func endWord() {
            guard length > 0 else { return }
            words += 1
            if length <= longestStopWord, let row = weights[String(decoding: word, as: UTF16.self)] {
                for index in row.indices { scores[index] += row[index] }
            }
            word.removeAll(keepingCapacity: true)
            length = 0
        }
        var i = 0
        var previous: UInt16 = 0
        while i < text.count, words < wordSample {
            let c = CharacterClass.scalar(at: i, in: text)
            i += c >= 0x10000 ? 2 : 1
            guard CharacterClass.isLetter(c) else {
                endWord()
                if c == 0xBF || c == 0xA1 { letterHint(UInt16(c), into: &scores) }
                previous = 0
                continue
            }
            var unit = c < 0x10000 ? UInt16(c) : 0xFFFD
            // Lower case for ASCII and Latin-1 (À–Þ but ×); other letters as they are.
            if (unit >= 0x41 && unit <= 0x5A) || (unit >= 0xC0 && unit <= 0xDE && unit != 0xD7) { unit += 0x20 }
            letterHint(unit, into: &scores)
            if previous == 0x69, unit == 0x6A { scores[nl] += 0.5 }   // "ij"
            previous = unit
            length += 1
            if length <= longestStopWord { word.append(unit) }
        }
        endWord()
        var best = 0
        for index in scores.indices where scores[index] > scores[best] { best = index }
        let runnerUp = scores.indices.filter { $0 != best }.map { scores[$0] }.max() ?? 0
        guard scores[best] >= minimumEvidence, scores[best] >= runnerUp * minimumLead else { return nil }
        return codes[best]
    }
}

private extension String {
    var wordList: [String] { split(separator: " ").map(String.init) }
}
