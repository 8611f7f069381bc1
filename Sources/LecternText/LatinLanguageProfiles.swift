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
/// ``minimumLead``, from at least ``minimumWords`` words; otherwise nothing
/// is decided (the caller falls back: the document's evidence, then English).
///
/// Scores are ``Scores`` (one `Int32` lane per language, in fixed point:
/// ``one`` is 420, the least common multiple of 1…7, so 1/k is exact for
/// any k); a word is looked up by its letters packed into a `UInt64`
/// (``packedLetter(_:)``) in an open-addressing table, so reading a word
/// allocates nothing and hashes no `String`.
enum LatinLanguageProfiles {
    /// The languages told apart, in the order of the score lanes.
    static let codes = ["en", "de", "fr", "es", "pt", "it", "nl"]

    /// One score per language (lane 7 is unused), in units of ``one``.
    typealias Scores = SIMD8<Int32>
    /// The score of one word no other language lists.
    static let one: Int32 = 420
    /// The score the winner needs: three words of its own, or their worth.
    static let minimumEvidence: Int32 = 3 * one
    /// How much the winner's score must exceed the runner-up's, as a
    /// fraction (5/4 = 1.25): ``decide(_:words:)`` compares best × 4 with
    /// runner-up × 5, in integers.
    static let minimumLead = (numerator: Int32(5), denominator: Int32(4))
    /// The fewest words a decision is made from. Function words are about
    /// 40–50 % of running text in these languages, so 8 words hold about
    /// the ``minimumEvidence`` of three stop words when they are prose;
    /// fewer words are a heading, a name or a list item ("Die Hard",
    /// "La La Land", "Bonjour Paris"), whose few stop words say little.
    static let minimumWords = 8
    /// Stop words are short; longer words are skipped without a lookup
    /// (8 letters of Latin-1 fill a `UInt64`).
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

    /// Which languages list each stop word, as a bit mask (bit i: `codes[i]`),
    /// keyed by the word packed as ``pack(_:)`` does.
    static let table = StopWordTable(stopWords.flatMap { code, words in
        let bit = UInt8(1) << UInt8(codes.firstIndex(of: code) ?? 0)
        return words.compactMap { word in pack(Array(word.utf16)).map { ($0, bit) } }
    })

    /// The score each mask of languages gives a word: ``one`` / k to each
    /// of its k languages.
    static let rows: [Scores] = (0..<128).map { mask in
        let k = Int32(mask.nonzeroBitCount)
        var row = Scores()
        guard k > 0 else { return row }
        for lane in 0..<codes.count where mask & (1 << lane) != 0 { row[lane] = one / k }
        return row
    }

    /// A word's letters as one `UInt64`, a byte each (lower-cased Latin-1,
    /// first letter in the lowest byte), or nil when it is longer than
    /// ``longestStopWord`` or has a letter beyond Latin-1 (no stop word does).
    static func pack(_ word: [UInt16]) -> UInt64? {
        guard word.count <= longestStopWord else { return nil }
        var key: UInt64 = 0
        for (index, unit) in word.enumerated() {
            guard let byte = packedLetter(unit) else { return nil }
            key |= UInt64(byte) << (8 * UInt64(index))
        }
        return key
    }

    /// A letter as ``pack(_:)`` stores it: ASCII and Latin-1 lower-cased
    /// (À–Þ but ×), nil beyond Latin-1.
    @inline(__always)
    static func packedLetter(_ unit: UInt16) -> UInt8? {
        guard unit < 0x100 else { return nil }
        if (unit >= 0x41 && unit <= 0x5A) || (unit >= 0xC0 && unit <= 0xDE && unit != 0xD7) { return UInt8(unit + 0x20) }
        return UInt8(unit)
    }

    /// The score of a packed word (zero for a word no language lists).
    @inline(__always)
    static func score(ofWord key: UInt64) -> Scores { rows[Int(table.mask(of: key))] }

    /// Letters that mark languages, with the score of each occurrence:
    /// ß and ä ö ü are German (ü also Spanish, rarely); ñ ¿ ¡ Spanish;
    /// ã õ Portuguese; ç Portuguese and French; è ì ò Italian and French
    /// (ì ò only Italian); ê ô â Portuguese and French; œ French; the pair
    /// "ij" Dutch (``ijScore``).
    @inline(__always)
    static func letterHint(_ c: UInt16, into scores: inout Scores) {
        let de = 1, fr = 2, es = 3, pt = 4, it = 5
        let half = one / 2, quarter = one / 4
        switch c {
        case 0xDF: scores[de] &+= one                                        // ß
        case 0xE4, 0xF6, 0xFC, 0xC4, 0xD6, 0xDC: scores[de] &+= half         // ä ö ü
        case 0xF1, 0xD1, 0xBF, 0xA1: scores[es] &+= one                      // ñ ¿ ¡
        case 0xE3, 0xF5, 0xC3, 0xD5: scores[pt] &+= one                      // ã õ
        case 0xE7, 0xC7: scores[pt] &+= quarter; scores[fr] &+= quarter      // ç
        case 0xE8, 0xC8: scores[it] &+= quarter; scores[fr] &+= quarter      // è
        case 0xEC, 0xF2: scores[it] &+= half                                 // ì ò
        case 0xEA, 0xF4, 0xE2: scores[pt] &+= quarter; scores[fr] &+= quarter // ê ô â
        case 0x153, 0x152: scores[fr] &+= one                                // œ
        default: break
        }
    }

    /// The score of the pair "ij" (Dutch), added to lane ``dutch``.
    static let ijScore = one / 2
    static let dutch = 6

    /// The language (an index into ``codes``) that `scores`, read from
    /// `words` words, decide; nil when the words are too few or the
    /// evidence too thin or too even.
    /// - Complexity: O(1).
    static func decide(_ scores: Scores, words: Int) -> Int? {
        guard words >= minimumWords else { return nil }
        var best = 0
        for lane in 1..<codes.count where scores[lane] > scores[best] { best = lane }
        var runnerUp: Int32 = 0
        for lane in 0..<codes.count where lane != best { runnerUp = max(runnerUp, scores[lane]) }
        // Scores stay far below Int32.max / 5: a sample is a few hundred letters.
        guard scores[best] >= minimumEvidence,
              scores[best] * minimumLead.denominator >= runnerUp * minimumLead.numerator else { return nil }
        return best
    }
}

/// An open-addressing hash table from packed words (non-zero `UInt64`s) to
/// a byte, sized to a power of two at least four times its entries, so a
/// look-up probes one or two slots: a multiply, a shift, a compare.
struct StopWordTable: Sendable {
    private let keys: [UInt64]
    private let values: [UInt8]
    private let shift: UInt64

    /// Entries with the same key are merged (their bytes or-ed).
    init(_ entries: [(UInt64, UInt8)]) {
        var bits: UInt64 = 4
        while (1 << bits) < entries.count * 4 { bits += 1 }
        shift = 64 - bits
        var keys = [UInt64](repeating: 0, count: 1 << bits)
        var values = [UInt8](repeating: 0, count: 1 << bits)
        for (key, value) in entries where key != 0 {
            var slot = Self.slot(key, shift)
            while keys[slot] != 0 && keys[slot] != key { slot = (slot + 1) & (keys.count - 1) }
            keys[slot] = key
            values[slot] |= value
        }
        self.keys = keys
        self.values = values
    }

    @inline(__always)
    private static func slot(_ key: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The byte stored for `key`, 0 when it is absent.
    @inline(__always)
    func mask(of key: UInt64) -> UInt8 {
        var slot = Self.slot(key, shift)
        while true {
            let stored = keys[slot]
            if stored == key { return values[slot] }
            if stored == 0 { return 0 }
            slot = (slot + 1) & (keys.count - 1)
        }
    }
}

private extension String {
    var wordList: [String] { split(separator: " ").map(String.init) }
}
