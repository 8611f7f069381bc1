// ParagraphScan+Faces.swift: what ends a sentence written without a
// terminator in informal writing: emoji and emoticons ("Красиво 😍 Завтра
// снова", "Bye :) Ok"), smiles ("спасибо)) Спасибо"), and a dash that
// breaks off speech ("You— No, because").

extension ParagraphScan {
    /// Whether `u` starts or continues an emoji: the pictographs of the
    /// BMP (U+2600–U+27BF, U+2B00–U+2BFF) and, through surrogates, those of
    /// the supplementary planes (U+1F000–U+1FAFF); variation selector 16,
    /// the zero-width joiner and the keycap mark join them.
    static func isEmojiUnit(_ u: UInt16) -> Bool {
        switch u {
        case 0x2600...0x27BF, 0x2B00...0x2BFF, 0xD83C...0xD83E, 0xDC00...0xDFFF, 0xFE0F, 0x200D, 0x20E3: return true
        default: return false
        }
    }

    /// What the scan stops at (``UnitClassTable/informalEnd``): a
    /// possible face, or an em dash.
    static func isInformalEnd(_ u: UInt16) -> Bool { isFaceStart(u) || u == 0x2014 }

    /// A possible face: an emoji's first unit, or the eyes of an emoticon
    /// (`:` `;` `=` `^`).
    static func isFaceStart(_ u: UInt16) -> Bool {
        (isEmojiUnit(u) && u != 0xFE0F && u != 0x200D && u != 0x20E3 && !(0xDC00...0xDFFF).contains(u))
            || u == 0x3A || u == 0x3B || u == 0x3D || u == 0x5E
    }

    /// The end of the face starting at `i`, or `i` when there is none.
    /// Emoji: a run of emoji units (a list bullet such as ✔ is no face: it
    /// starts the next item). Emoticons: eyes `:` `;` `=`, an optional nose
    /// `-` or `'`, then a mouth repeated (`:)`, `;-)`, `:((`, `:D`, `=P`);
    /// or `^^`, `^_^`. Either must end at white space or the paragraph's
    /// end, so "10:30", "a=b" and "Note:Dogs" are no faces.
    func faceEnd(at i: Int) -> Int {
        let u = text[i]
        var j = i
        if Self.isEmojiUnit(u) {
            guard !ListMarkers.isBullet(u) else { return i }
            while j < end, j - i < Self.lookahead, Self.isEmojiUnit(text[j]) { j += 1 }
        } else if u == 0x5E {
            j += 1
            if j < end, text[j] == 0x5F || text[j] == 0x2E { j += 1 }   // ^_^ ^.^
            guard j < end, text[j] == 0x5E else { return i }
            while j < end, text[j] == 0x5E { j += 1 }
        } else {
            j += 1
            if j < end, text[j] == 0x2D || text[j] == 0x27 { j += 1 }
            guard j < end, Self.isMouth(text[j]) else { return i }
            let mouth = text[j]
            while j < end, j - i < 8, text[j] == mouth { j += 1 }
        }
        return j == end || CharacterClass.isWhiteSpace(text[j]) ? j : i
    }

    private static func isMouth(_ u: UInt16) -> Bool {
        switch u {
        case 0x29, 0x28, 0x44, 0x50, 0x70, 0x4F, 0x6F, 0x33, 0x2A, 0x7C, 0x2F, 0x5C, 0x5D, 0x5B: return true   // ) ( D P p O o 3 * | / \ ] [
        default: return false
        }
    }

    /// At a possible face at `i` in a language written in two cases: a face
    /// after a lower-case word, then white space and a capitalised word
    /// (an upper-case letter, then a lower-case one), ends the sentence:
    /// informal writing ends sentences with a face instead of a
    /// terminator, and a capital after it is the next one's start. A face
    /// inside brackets or a quotation that closes later, after an initial
    /// or an acronym ("I ❤️ NY"), or before a lower-case word goes on.
    /// Returns where scanning resumes.
    mutating func face(at i: Int, _ body: (Int) -> Void) -> Int {
        if text[i] == 0x2014 { return brokenOff(at: i, body) }
        let faceEnd = faceEnd(at: i)
        guard faceEnd > i else { return i + 1 }
        guard faceEnd < end else { return end }
        var next = faceEnd
        while next < end, CharacterClass.isWhiteSpace(text[next]) { next += 1 }
        next = afterTrailers(from: next)   // "😍 😍 Next"
        guard afterLowercaseWord(i), startsCapitalisedWord(at: next),
              !embedded(terminator: i, afterClosers: faceEnd)
        else { return next }
        emit(next, body)
        return next
    }

    /// At an em dash: attached to a word and followed by white space and a
    /// capitalised word, it breaks off speech and the next sentence starts
    /// ("Kendra, just let it go. You— No, because she doesn't—"). Edited
    /// prose sets its dashes closed ("was—I think—right") or open on both
    /// sides ("was — I think — right"), and goes on.
    private mutating func brokenOff(at i: Int, _ body: (Int) -> Void) -> Int {
        guard i > sentenceStart, i + 1 < end, CharacterClass.isLetter(UInt32(text[i - 1])),
              CharacterClass.isWhiteSpace(text[i + 1]) else { return i + 1 }
        var next = i + 1
        while next < end, CharacterClass.isWhiteSpace(text[next]) { next += 1 }
        guard startsCapitalisedWord(at: next), !embedded(terminator: i, afterClosers: i + 1) else { return next }
        emit(next, body)
        return next
    }

    /// At a ")" while no bracket has opened in the paragraph, in a language
    /// written in two cases: a run of ")" attached to a lower-case word
    /// is a smile (Russian writes "спасибо)))"), and before white space
    /// and a capitalised word it ends the sentence, as a face does. A list
    /// marker ("iii) Text", "b) Pears") is none: the word must have two
    /// letters or more and be no roman numeral ``QuotationSpans`` takes
    /// for a marker.
    mutating func smile(at i: Int, _ body: (Int) -> Void) -> Int {
        var runEnd = i
        while runEnd < end, text[runEnd] == 0x29 { runEnd += 1 }
        guard runEnd < end, CharacterClass.isWhiteSpace(text[runEnd]), afterLowercaseWord(i),
              CharacterClass.isLetter(UInt32(text[i - 1])),
              !QuotationSpans.isListMarkerCloser(text: text, at: runEnd - 1, range: start..<end)
        else { return runEnd }
        var next = runEnd
        while next < end, CharacterClass.isWhiteSpace(text[next]) { next += 1 }
        next = afterTrailers(from: next)
        guard startsCapitalisedWord(at: next) else { return next }
        emit(next, body)
        return next
    }

    /// An upper-case letter, then a lower-case one or white space ("Next",
    /// Russian "А мы"), not an acronym ("NY").
    private func startsCapitalisedWord(at i: Int) -> Bool {
        guard i + 1 < end, CharacterClass.isUppercase(CharacterClass.scalar(at: i, in: text)) else { return false }
        let after = CharacterClass.scalar(at: i + 1, in: text)
        return CharacterClass.isLowercase(after) || (after < 0x10000 && CharacterClass.isWhiteSpace(UInt16(after)))
    }

    /// Whether a lower-case letter ends the word before `i` (directly or
    /// after white space); the word must be longer than one letter.
    private func afterLowercaseWord(_ i: Int) -> Bool {
        var j = i
        while j > sentenceStart, i - j < 4, CharacterClass.isWhiteSpace(text[j - 1]) { j -= 1 }
        guard j - 2 >= sentenceStart else { return false }
        return CharacterClass.isLowercase(UInt32(text[j - 1])) && CharacterClass.isLetter(UInt32(text[j - 2]))
    }
}
