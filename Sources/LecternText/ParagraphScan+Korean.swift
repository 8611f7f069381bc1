// ParagraphScan+Korean.swift: Korean sentences that end without punctuation.

extension ParagraphScan {
    /// At white space `s`: does the Hangul word before it end a sentence?
    ///
    /// Text that punctuates its sentences must not be split where the
    /// punctuation does not split it: an ending that is also a common
    /// mid-sentence form (``KoreanEndings/isAmbiguous(_:word:)``: 태우다 for
    /// -다가, 선배요 listing, 받을까 before 싶다) splits only where no
    /// sentence terminator follows in the paragraph, that is in writing
    /// that has stopped punctuating. The distinctive endings (했다, 합니다,
    /// 것이다, 맛있음) split everywhere, as informal writing mixes both.
    mutating func koreanEnding(at s: Int, _ body: (Int) -> Void) -> Int {
        var next = s
        while next < end, CharacterClass.isWhiteSpace(text[next]) { next += 1 }
        // Decorations standing alone ("됨 ㅇㅇ 그런") stay with the word before.
        next = afterTrailers(from: next)
        guard next < end else { return end }
        // The tests are pure; the cheapest come first.
        guard CharacterClass.isHangulSyllable(text[next]) || startsListItem(at: next),
              koreanWordEnds(before: s, ambiguousToo: s >= lastTerminator),
              !KoreanEndings.continuesClause(text, at: next, limit: end, flags: flags),
              !(text[s - 1] == 0xC9C0 && KoreanEndings.startsNegativeAuxiliary(text, at: next, limit: end)),
              // "들어갔다 나오니까": in punctuated text, -다 before a verb in
              // -니까/-더니/-면서 is -다가 (and then), not an end.
              !(s < lastTerminator && text[s - 1] == 0xB2E4
                  && KoreanEndings.isConnectiveVerb(text, at: next, limit: end)),
              !embedded(terminator: s - 1, afterClosers: s)
        else { return next }
        emit(next, body)
        return next
    }

    /// Whether the Hangul word that ends at `wordEnd` (before trailing
    /// decorations and one decoration-only word) ends a sentence.
    /// `ambiguousToo` says whether an ambiguous ending counts (see
    /// ``koreanEnding(at:_:)``).
    func koreanWordEnds(before wordEnd: Int, ambiguousToo: Bool = true) -> Bool {
        var wordEnd = wordEnd
        var laughter = 0
        for _ in 0..<2 {
            while wordEnd > sentenceStart, KoreanEndings.isTrailer(text[wordEnd - 1]) {
                if KoreanEndings.isLaughter(text[wordEnd - 1]) { laughter += 1 }
                wordEnd -= 1
            }
            guard wordEnd > sentenceStart, CharacterClass.isWhiteSpace(text[wordEnd - 1]) else { break }
            var i = wordEnd
            while i > sentenceStart, CharacterClass.isWhiteSpace(text[i - 1]) { i -= 1 }
            guard i > sentenceStart, KoreanEndings.isTrailer(text[i - 1]) else { break }
            wordEnd = i
        }
        let word = hangulWord(endingAt: wordEnd)
        guard !word.isEmpty else { return false }
        if laughter >= 2 { return true }
        return KoreanEndings.endsSentence(text, word: word)
            && (ambiguousToo || !KoreanEndings.isAmbiguous(text, word: word))
    }

    /// The whole Hangul word that ends at `wordEnd`, or an empty range when
    /// none does (or it is glued to other letters).
    func hangulWord(endingAt wordEnd: Int) -> Range<Int> {
        var wordStart = wordEnd
        while wordStart > sentenceStart, CharacterClass.isHangulSyllable(text[wordStart - 1]) { wordStart -= 1 }
        guard wordStart == sentenceStart || !CharacterClass.isLetter(UInt32(text[wordStart - 1])) else {
            return wordEnd..<wordEnd
        }
        return wordStart..<wordEnd
    }

    /// "2. " or "3) ": a numbered item inside a paragraph.
    func startsListItem(at i: Int) -> Bool {
        var j = i
        while j < end, j - i < 3, CharacterClass.isDigit(text[j]) { j += 1 }
        guard j > i, j + 1 < end, text[j] == 0x2E || text[j] == 0x29 else { return false }
        return CharacterClass.isWhiteSpace(text[j + 1])
    }
}
