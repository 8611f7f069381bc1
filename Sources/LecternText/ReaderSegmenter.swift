// ReaderSegmenter.swift: sentence boundaries tailored for reading.

/// Finds sentence boundaries for reading: UAX #29's idea (a terminator,
/// closing punctuation, spaces, then a new sentence) with the decisions a
/// reader expects, per language.
///
/// One scan finds candidates (terminators, UAX #29 line separators, Korean
/// endings, list items); each candidate is then decided by the rules below,
/// looking only at its neighbourhood, so the cost stays linear:
///
/// - A closing quote or bracket after a terminator belongs to the sentence
///   (`"Stop." She` breaks after the quote); an opening one after the space
///   starts the next sentence.
/// - A lower-case word after a terminator continues the sentence
///   (`"This is great." she said.`, `Yahoo! in`, `a.m. in`).
/// - A period needs a following space, except before CJK text: "3.14",
///   "v2.0.1", "example.com", "Jane.Doe@example.com", "report.pdf".
/// - A period after a non-breaking prefix (Moses lists plus supplements:
///   "Mr.", "т. е.", "No. 5"), after an initial ("J. R. R. Tolkien",
///   "А. С. Пушкин"), after a list ordinal at the start of a sentence, or
///   (German) after a day ordinal does not end the sentence. An acronym
///   ("U.S.") before a capitalised word ends it, in English, only when that
///   word commonly starts sentences ("U.S. How" but "U.S. Government").
/// - Ellipses: "..." and "…" end a sentence before a capital; a spaced
///   ". . ." mid-sentence does not; "word. . . . Next" is a period followed
///   by an ellipsis that opens the next sentence.
/// - Full-width terminators (。！？) need no space. A quotation followed by
///   a quotative particle (Korean 라고/고 attached, Japanese と) does not end the
///   sentence; in Korean, Japanese and Chinese a terminator inside brackets or
///   a quotation that closes later in the paragraph never ends the sentence.
/// - Korean: -다, -요, -죠 … before a new clause end a sentence without
///   punctuation (``KoreanEndings``).
/// - Run-in lists ("1) a 2) b", "• a • b") split before each item
///   (``ListMarkers``).
///
/// - Complexity: O(n) per paragraph; plain text between terminators costs one
///   table test per code unit.
struct ReaderSegmenter {
    let rules: LanguageRules
    private let flags = UnitClassTable.flags

    init(language: Language) {
        rules = LanguageRules.rules(for: language)
    }

    /// Calls `body` with each boundary strictly inside `paragraph`, in
    /// increasing order.
    func forEachBoundary(in text: UnsafeBufferPointer<UInt16>, paragraph: Paragraph, _ body: (Int) -> Void) {
        var scan = ParagraphScan(text: text, flags: flags, range: paragraph.content, rules: rules)
        scan.run(body)
    }
}

/// The state of one paragraph's scan.
private struct ParagraphScan {
    let text: UnsafeBufferPointer<UInt16>
    /// ``UnitClassTable/flags``.
    let flags: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int
    let rules: LanguageRules
    private var quotations: QuotationSpans?
    /// Whether an opening bracket or quotation mark was seen so far: until
    /// then no terminator can be embedded, and the spans need not be built.
    private var sawOpener = false
    private var listStarts: [Int]
    private var nextListItem = 0
    private var sentenceStart: Int
    private var lastEmitted: Int

    init(text: UnsafeBufferPointer<UInt16>, flags: UnsafeBufferPointer<UInt8>, range: Range<Int>, rules: LanguageRules) {
        self.text = text
        self.flags = flags
        start = range.lowerBound
        end = range.upperBound
        self.rules = rules
        listStarts = ListMarkers.itemStarts(in: text, range: range)
        sentenceStart = start
        lastEmitted = start
    }

    mutating func run(_ body: (Int) -> Void) {
        let candidates = UnitClassTable.terminator | UnitClassTable.lineSeparator
            | (rules.koreanEndings ? UnitClassTable.koreanWordEnd : 0)
        var mask = candidates | UnitClassTable.pairing
        let text = self.text, flags = self.flags, end = self.end
        var i = start
        while i < end {
            var u = text[i]
            var unitFlags = flags[Int(u)]
            // The hot loop: most units are no candidate at all.
            while unitFlags & mask == 0 {
                i += 1
                guard i < end else { break }
                u = text[i]
                unitFlags = flags[Int(u)]
            }
            if unitFlags & mask == 0 {
                break
            } else if unitFlags & UnitClassTable.pairing != 0 && unitFlags & UnitClassTable.terminator == 0 {
                if CharacterClass.isOpener(u) {
                    sawOpener = true
                    mask = candidates
                }
                i += 1
            } else if unitFlags & UnitClassTable.terminator != 0, let kind = CharacterClass.terminator(u) {
                flushListItems(upTo: i, body)
                i = terminator(at: i, kind: kind, body)
            } else if unitFlags & UnitClassTable.lineSeparator != 0 {
                // UAX #29 SB4: a sentence ends after CR, NEL and LS.
                emit(i + 1, body)
                i += 1
            } else if i + 1 < end, CharacterClass.isWhiteSpace(text[i + 1]) {
                // A word that may end a Korean sentence, then a space.
                flushListItems(upTo: i + 1, body)
                i = koreanEnding(at: i + 1, body)
            } else {
                i += 1
            }
        }
        flushListItems(upTo: end, body)
    }

    // MARK: Emitting

    private mutating func emit(_ boundary: Int, _ body: (Int) -> Void) {
        guard boundary > lastEmitted, boundary < end else { return }
        flushListItems(upTo: boundary, body)
        guard boundary > lastEmitted else { return }
        body(boundary)
        lastEmitted = boundary
        sentenceStart = boundary
    }

    private mutating func flushListItems(upTo offset: Int, _ body: (Int) -> Void) {
        while nextListItem < listStarts.count, listStarts[nextListItem] <= offset {
            let item = listStarts[nextListItem]
            nextListItem += 1
            if item > lastEmitted, item < end {
                body(item)
                lastEmitted = item
                sentenceStart = item
            }
        }
    }

    // MARK: Terminators

    /// Decides the terminator at `t`; returns where scanning resumes.
    private mutating func terminator(at t: Int, kind: TerminatorKind, _ body: (Int) -> Void) -> Int {
        // "[...]", "(?)", and marks that open a sentence ("... and then")
        // are not terminators.
        if (t > start && CharacterClass.isOpener(text[t - 1])) || onlyMarkers(in: sentenceStart..<t, orOpeners: true) {
            var i = t + 1
            while i < end, CharacterClass.terminator(text[i]) != nil { i += 1 }
            return i
        }
        var kind = kind
        var runEnd = t + 1
        if text[t] == 0x2E, let ellipsis = spacedEllipsis(at: t) {
            let attached = t > start && !CharacterClass.isWhiteSpace(text[t - 1])
            if attached && ellipsis.dots >= 4 {
                // "compounds. . . . The": a period, then an ellipsis that
                // opens the next sentence.
                if let next = firstLetter(from: t + 1), !CharacterClass.isLowercase(next.scalar),
                   !embedded(terminator: t, afterClosers: t + 1) {
                    emit(t + 2, body)
                }
                return ellipsis.end
            }
            if !attached && ellipsis.dots == 3 { return ellipsis.end }
            kind = .ellipsis
            runEnd = ellipsis.end
        } else {
            while runEnd < end, let next = CharacterClass.terminator(text[runEnd]) {
                kind = Self.merge(kind, next)
                runEnd += 1
            }
        }
        // Closing punctuation, and terminators after it ("(see above.).").
        var closersEnd = runEnd
        var closedQuote = false
        while closersEnd < end {
            let u = text[closersEnd]
            // “ and ‘ close German quotations („so“) when attached.
            if CharacterClass.isCloser(u) || CharacterClass.terminator(u) != nil || u == 0x201C || u == 0x2018 {
                closedQuote = closedQuote || CharacterClass.isClosingQuote(u) || u == 0x201C || u == 0x2018
                sawOpener = sawOpener || u == 0x22 || u == 0xFF02   // straight quotes open as well
                closersEnd += 1
            } else if closersEnd + 1 < end, u == 0x20 || u == 0xA0 || u == 0x202F,
                      CharacterClass.isSpacedCloser(text[closersEnd + 1]) {
                closedQuote = true
                closersEnd += 2
            } else if u == 0x5B, let citationEnd = citation(at: closersEnd) {
                closersEnd = citationEnd
            } else {
                break
            }
        }
        var next = closersEnd
        while next < end, CharacterClass.isWhiteSpace(text[next]) { next += 1 }
        next = afterTrailers(from: next)
        guard next < end else { return end }
        if endsSentence(terminator: t, kind: kind, closersEnd: closersEnd, closedQuote: closedQuote, next: next) {
            emit(next, body)
        }
        return next
    }

    private static func merge(_ a: TerminatorKind, _ b: TerminatorKind) -> TerminatorKind {
        if a == .strong || b == .strong { return .strong }
        if a == .cjk || b == .cjk { return .cjk }
        return .ellipsis
    }

    private mutating func endsSentence(terminator t: Int, kind: TerminatorKind, closersEnd: Int,
                                       closedQuote: Bool, next: Int) -> Bool {
        if embedded(terminator: t, afterClosers: closersEnd) { return false }
        let following = text[next]
        if next == closersEnd {
            // No space: only CJK text follows a sentence without one
            // ("반.전.매.력" and "16%..중" are not sentence ends).
            if closedQuote && quotativeParticle(at: next, spaced: false) { return false }
            if kind == .ellipsis && rules.koreanEndings && CharacterClass.isHangulSyllable(following) {
                return koreanWordEnds(before: t)   // "방식입니다...하지만"
            }
            return kind == .cjk || (kind == .strong && CharacterClass.isCJK(following))
        }
        if (closedQuote || rules.koreanEndings) && quotativeParticle(at: next, spaced: true) { return false }
        guard let word = firstLetter(from: next) else { return true }
        if rules.lowercaseContinues && CharacterClass.isLowercase(word.scalar) { return false }
        switch kind {
        case .strong, .cjk:
            return true
        case .ellipsis:
            // Korean trails off with "..." mid-sentence after a connective
            // ("좋아하는데... 진정하고") or an interjection ("어... 쓰실").
            guard rules.koreanEndings else { return true }
            let word = hangulWord(endingAt: t)
            return word.isEmpty || !KoreanEndings.trailsOff(text, word: word)
        case .period:
            return periodEndsSentence(at: t, nextWord: word.offset)
        }
    }

    /// The rules for a single "." followed by space and a word that is not
    /// lower-case.
    private func periodEndsSentence(at t: Int, nextWord: Int) -> Bool {
        let tokenStart = self.tokenStart(before: t)
        guard tokenStart < t else { return true }
        let token = tokenStart..<t
        let nextIsDigit = CharacterClass.isDigit(text[nextWord])
        if isListOrdinal(token), onlyMarkers(in: sentenceStart..<tokenStart) { return false }
        if rules.pronounI, token.count == 1, text[tokenStart] == 0x49 {
            // "you and I. Did" ends; "Albert I. Jones" does not.
            return previousWordIsLowercase(before: tokenStart)
        }
        switch prefixKind(token) {
        case .always: return false
        case .beforeNumbersOnly: return !nextIsDigit
        case .mayEnd: return true
        case nil: break
        }
        if token.count == 1, CharacterClass.isUppercase(UInt32(text[tokenStart])) { return false }
        if isAcronym(token) {
            guard !rules.sentenceStarters.isEmpty else { return false }
            return rules.sentenceStarters.contains(word(at: nextWord))
        }
        if rules.numericOrdinals, token.count <= 2, token.allSatisfy({ CharacterClass.isDigit(text[$0]) }) {
            return false
        }
        return true
    }

    // MARK: Korean endings

    /// At white space `s`: does the Hangul word before it end a sentence?
    private mutating func koreanEnding(at s: Int, _ body: (Int) -> Void) -> Int {
        var next = s
        while next < end, CharacterClass.isWhiteSpace(text[next]) { next += 1 }
        guard next < end else { return end }
        // Decorations standing alone ("됨 ㅇㅇ") are decided after them.
        if afterTrailers(from: next) != next { return next }
        guard koreanWordEnds(before: s),
              CharacterClass.isHangulSyllable(text[next]) || startsListItem(at: next),
              !KoreanEndings.continuesClause(text, at: next, limit: end),
              !embedded(terminator: s - 1, afterClosers: s)
        else { return next }
        emit(next, body)
        return next
    }

    /// Whether the Hangul word that ends at `wordEnd` (before trailing
    /// decorations and one decoration-only word) ends a sentence.
    private func koreanWordEnds(before wordEnd: Int) -> Bool {
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
        return laughter >= 2 || KoreanEndings.endsSentence(text, word: word)
    }

    /// The whole Hangul word that ends at `wordEnd`, or an empty range when
    /// none does (or it is glued to other letters).
    private func hangulWord(endingAt wordEnd: Int) -> Range<Int> {
        var wordStart = wordEnd
        while wordStart > sentenceStart, CharacterClass.isHangulSyllable(text[wordStart - 1]) { wordStart -= 1 }
        guard wordStart == sentenceStart || !CharacterClass.isLetter(UInt32(text[wordStart - 1])) else {
            return wordEnd..<wordEnd
        }
        return wordStart..<wordEnd
    }

    /// "2. " or "3) ": a numbered item inside a paragraph.
    private func startsListItem(at i: Int) -> Bool {
        var j = i
        while j < end, j - i < 3, CharacterClass.isDigit(text[j]) { j += 1 }
        guard j > i, j + 1 < end, text[j] == 0x2E || text[j] == 0x29 else { return false }
        return CharacterClass.isWhiteSpace(text[j + 1])
    }

    // MARK: Neighbourhood helpers

    private mutating func embedded(terminator t: Int, afterClosers: Int) -> Bool {
        guard sawOpener else { return false }
        if quotations == nil {
            quotations = QuotationSpans(text: text, flags: flags, range: start..<end,
                                        includeQuotations: rules.quotationsAreEmbedded)
        }
        return quotations?.embeds(terminator: t, afterClosers: afterClosers) ?? false
    }

    /// ". . ." (dots separated by single spaces, at least three) at `t`.
    private func spacedEllipsis(at t: Int) -> (dots: Int, end: Int)? {
        var dots = 1
        var i = t + 1
        while i + 1 < end, text[i] == 0x20, text[i + 1] == 0x2E {
            dots += 1
            i += 2
        }
        return dots >= 3 ? (dots, i) : nil
    }

    /// The first letter or digit at or after `i`, skipping white space,
    /// openers, dots and dashes ("— спросила она"); nil if none before the
    /// paragraph's end.
    private func firstLetter(from i: Int) -> (offset: Int, scalar: UInt32)? {
        var i = i
        while i < end {
            let u = text[i]
            if CharacterClass.isWhiteSpace(u) || CharacterClass.isOpener(u) || u == 0x2E || u == 0x2026
                || u == 0x2014 || u == 0x2013 || u == 0x2D {
                i += 1
                continue
            }
            let scalar = CharacterClass.scalar(at: i, in: text)
            return CharacterClass.isLetter(scalar) || CharacterClass.isDigit(u) ? (i, scalar) : nil
        }
        return nil
    }

    /// Whether a quotation closed just before `next` is followed by a
    /// quotative particle: Japanese と/って, Korean 라고/고/하며 …
    private func quotativeParticle(at next: Int, spaced: Bool) -> Bool {
        let u = text[next]
        switch rules.language.code {
        case "ja":
            return !spaced && (u == 0x3068 || u == 0x3063)   // と っ
        case "ko":
            return spaced ? KoreanEndings.continuesClause(text, at: next, limit: end) : CharacterClass.isHangulSyllable(u)
        default:
            return false
        }
    }

    /// Where the word ending at `t` starts (after white space or an opener).
    private func tokenStart(before t: Int) -> Int {
        var i = t
        while i > sentenceStart {
            let u = text[i - 1]
            if CharacterClass.isWhiteSpace(u) || CharacterClass.isOpener(u) || ListMarkers.isBullet(u) { break }
            i -= 1
        }
        return i
    }

    private func word(at i: Int) -> String {
        var j = i
        while j < end, CharacterClass.isLetter(UInt32(text[j])) { j += 1 }
        return String(decoding: text[i..<j], as: UTF16.self)
    }

    /// The prefix kind of a token; the token joined with the one before it,
    /// when that ends in a period ("т." + "д" → "т.д"), is tried first, being
    /// the more specific.
    private func prefixKind(_ token: Range<Int>) -> NonbreakingPrefixes.Kind? {
        if let previous = previousAbbreviation(before: token.lowerBound),
           let kind = rules.prefixes.kind(of: text[previous], text[token]) {
            return kind
        }
        return rules.prefixes.kind(of: text[token])
    }

    /// The token before white space at `i` if it ends in a period ("т.").
    private func previousAbbreviation(before i: Int) -> Range<Int>? {
        var i = i
        guard i > sentenceStart, CharacterClass.isWhiteSpace(text[i - 1]) else { return nil }
        while i > sentenceStart, CharacterClass.isWhiteSpace(text[i - 1]) { i -= 1 }
        guard i > sentenceStart, text[i - 1] == 0x2E else { return nil }
        let previous = tokenStart(before: i)
        return previous < i ? previous..<i : nil
    }

    /// "U.S", "e.g", "P.M", "т.е", "J.-P": letters in groups of one or two,
    /// between dots (a hyphen may follow a dot).
    private func isAcronym(_ token: Range<Int>) -> Bool {
        var group = 0
        var groups = 0
        for i in token {
            let u = text[i]
            if u == 0x2D, i > token.lowerBound, text[i - 1] == 0x2E {
                continue
            } else if u == 0x2E {
                guard group > 0 else { return false }
                groups += 1
                group = 0
            } else if CharacterClass.isLetter(UInt32(u)) {
                group += 1
                if group > 2 { return false }
            } else {
                return false
            }
        }
        return groups >= 1 && group > 0
    }

    /// "1", "12", "a", "B": what a list item is numbered with.
    private func isListOrdinal(_ token: Range<Int>) -> Bool {
        if token.count == 1, CharacterClass.isLetter(UInt32(text[token.lowerBound])) { return true }
        return token.count <= 3 && token.allSatisfy { CharacterClass.isDigit(text[$0]) }
    }

    /// Whether a range holds only white space and bullets (and openers).
    private func onlyMarkers(in range: Range<Int>, orOpeners: Bool = false) -> Bool {
        range.allSatisfy {
            CharacterClass.isWhiteSpace(text[$0]) || ListMarkers.isBullet(text[$0])
                || (orOpeners && CharacterClass.isOpener(text[$0]))
        }
    }

    /// Past decorations that trail a sentence after its terminator and a
    /// space: emoji and emoticons ("^^", "ㅋㅋ"), and in Korean a short
    /// parenthetical ("하다. (6회 우승)"); each must end at white space or at
    /// the paragraph's end. Returns `i` when there are none.
    private func afterTrailers(from i: Int) -> Int {
        var i = i
        while i < end {
            var j = i
            if rules.koreanEndings, text[j] == 0x28 {
                while j < end, j - i < 40, text[j] != 0x29 { j += 1 }
                j = j < end && text[j] == 0x29 ? j + 1 : i
            } else {
                while j < end, KoreanEndings.isTrailer(text[j]), text[j] != 0x3B { j += 1 }
            }
            guard j > i, j == end || CharacterClass.isWhiteSpace(text[j]) else { return i }
            while j < end, CharacterClass.isWhiteSpace(text[j]) { j += 1 }
            i = j
        }
        return i
    }

    /// A citation mark right after a terminator: "[12]", "[참고 2]" (at most
    /// 12 units between the brackets).
    private func citation(at i: Int) -> Int? {
        var j = i + 1
        while j < end, j - i <= 12, text[j] != 0x5D { j += 1 }
        return j < end && text[j] == 0x5D && j > i + 1 ? j + 1 : nil
    }

    private func previousWordIsLowercase(before i: Int) -> Bool {
        var j = i
        while j > sentenceStart, CharacterClass.isWhiteSpace(text[j - 1]) { j -= 1 }
        guard j > sentenceStart else { return false }
        let c = UInt32(text[j - 1])
        guard CharacterClass.isLetter(c) else { return false }
        var k = j
        while k > sentenceStart, CharacterClass.isLetter(UInt32(text[k - 1])) { k -= 1 }
        return CharacterClass.isLowercase(UInt32(text[k]))
    }
}
