// ParagraphScan.swift: the reader rules' scan of one paragraph: candidates,
// terminators and the decisions on them. Korean endings and the small
// neighbourhood tests live in the extensions beside this file.

/// The state of one paragraph's scan.
struct ParagraphScan {
    let text: UnsafeBufferPointer<UInt16>
    /// ``UnitClassTable/flags``.
    let flags: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int
    let rules: LanguageRules
    var quotations: QuotationSpans?
    /// Whether an opening bracket or quotation mark was seen so far: until
    /// then no terminator can be embedded, and the spans need not be built.
    var sawOpener = false
    /// Whether the writer starts sentences in lower case: the paragraph
    /// starts so, or a sentence in it did after a "?" or "!"
    /// (``questionEndsBeforeLowercase(terminator:closersEnd:next:word:)``).
    /// Then a period before a lower-case word ends the sentence too, unless
    /// an abbreviation's.
    var lowercaseStarts = false
    var listStarts: [Int]
    var nextListItem = 0
    var sentenceStart: Int
    var lastEmitted: Int
    /// Where the paragraph's last sentence terminator is (`start` when it
    /// has none), for Korean only: the ambiguous endings split only after
    /// it (see ``ParagraphScan/koreanEnding(at:_:)``). Found by one
    /// backward scan, which stops at the first terminator from the end.
    let lastTerminator: Int

    init(text: UnsafeBufferPointer<UInt16>, flags: UnsafeBufferPointer<UInt8>, range: Range<Int>, rules: LanguageRules) {
        self.text = text
        self.flags = flags
        start = range.lowerBound
        end = range.upperBound
        self.rules = rules
        listStarts = ListMarkers.itemStarts(in: text, range: range)
        sentenceStart = start
        lastEmitted = start
        var last = range.upperBound
        if rules.koreanEndings {
            while last > range.lowerBound, flags[Int(text[last - 1])] & UnitClassTable.terminator == 0 { last -= 1 }
        }
        lastTerminator = last
        lowercaseStarts = rules.lowercaseContinues && (firstLetter(from: start).map { CharacterClass.isLowercase($0.scalar) } ?? false)
    }

    mutating func run(_ body: (Int) -> Void) {
        let candidates = UnitClassTable.terminator | UnitClassTable.lineSeparator
            | (rules.lowercaseContinues ? UnitClassTable.informalEnd : 0)
        var mask = candidates | UnitClassTable.pairing
        // A Korean ending is a candidate only where white space follows it
        // (see ``koreanEnding(at:_:)``): a unit's koreanWordEnd bit counts
        // only with the next unit's whiteSpace bit, shifted onto it. Most
        // final syllables are inside words (다른, 지금, 요즘, 까지), and
        // each stop of the scan costs a mispredicted branch or more.
        let korean = rules.koreanEndings ? UnitClassTable.koreanWordEnd : 0
        let shift = UnitClassTable.koreanWordEnd.trailingZeroBitCount - UnitClassTable.whiteSpace.trailingZeroBitCount
        let text = self.text, flags = self.flags, end = self.end
        /// Whether unit `k` is a Korean word end followed by white space.
        @inline(__always) func koreanEndBeforeSpace(_ k: Int) -> Bool {
            k + 1 < end && flags[Int(text[k])] & korean & (flags[Int(text[k + 1])] &<< shift) != 0
        }
        var i = start
        while i < end {
            // The hot loop: most units are no candidate at all. In Korean
            // text, four units at a time with the pairs tested as well
            // (five loads, one branch), so that the final syllables inside
            // words cost no branch at all.
            if korean != 0 {
                let stopMask = mask
                while i &+ 5 <= end {
                    let f0 = flags[Int(text[i])], f1 = flags[Int(text[i &+ 1])]
                    let f2 = flags[Int(text[i &+ 2])], f3 = flags[Int(text[i &+ 3])]
                    let f4 = flags[Int(text[i &+ 4])]
                    let pairs01: UInt8 = (f0 & (f1 &<< shift)) | (f1 & (f2 &<< shift))
                    let pairs23: UInt8 = (f2 & (f3 &<< shift)) | (f3 & (f4 &<< shift))
                    let any: UInt8 = (f0 | f1) | (f2 | f3)
                    if (any & stopMask) | ((pairs01 | pairs23) & korean) != 0 { break }
                    i &+= 4
                }
            }
            // Then (in other text, from the start) four at a time on the flags
            // alone; a block that may hold a candidate is resolved without
            // a branch per unit: `found` has a bit for each unit that is one,
            // and a block with none (a final syllable not before a space)
            // costs one more test, not a stop.
            while i &+ 4 <= end {
                let f0 = flags[Int(text[i])], f1 = flags[Int(text[i &+ 1])]
                let f2 = flags[Int(text[i &+ 2])], f3 = flags[Int(text[i &+ 3])]
                guard (f0 | f1 | f2 | f3) & (mask | korean) != 0 else {
                    i &+= 4
                    continue
                }
                let f4 = i &+ 4 < end ? flags[Int(text[i &+ 4])] : 0
                let m = mask
                @inline(__always) func stops(_ f: UInt8, _ next: UInt8) -> UInt8 {
                    (f & m) | (f & korean & (next &<< shift)) != 0 ? 1 : 0
                }
                let found = stops(f0, f1) | stops(f1, f2) &<< 1 | stops(f2, f3) &<< 2 | stops(f3, f4) &<< 3
                guard found != 0 else {
                    i &+= 4
                    continue
                }
                i &+= found.trailingZeroBitCount
                break
            }
            // Then one by one: the paragraph's last units (a candidate found
            // in a block stops this at once).
            while i < end, flags[Int(text[i])] & mask == 0, !koreanEndBeforeSpace(i) { i += 1 }
            guard i < end else { break }
            let u = text[i]
            let unitFlags = flags[Int(u)]
            if unitFlags & UnitClassTable.pairing != 0 && unitFlags & UnitClassTable.terminator == 0 {
                if CharacterClass.isOpener(u) {
                    sawOpener = true
                    mask = candidates
                    i += 1
                } else if u == 0x29 && rules.lowercaseContinues && i > start {
                    // No bracket is open: a smile, "спасибо)) Спасибо".
                    i = smile(at: i, body)
                } else {
                    i += 1
                }
            } else if unitFlags & UnitClassTable.terminator != 0, let kind = CharacterClass.terminator(u) {
                flushListItems(upTo: i, body)
                i = terminator(at: i, kind: kind, body)
            } else if unitFlags & UnitClassTable.lineSeparator != 0 {
                // UAX #29 SB4: a sentence ends after CR, NEL and LS.
                emit(i + 1, body)
                i += 1
            } else if unitFlags & UnitClassTable.informalEnd != 0 && rules.lowercaseContinues {
                // An emoji, emoticon or dash, which may end a sentence without a terminator.
                flushListItems(upTo: i, body)
                i = face(at: i, body)
            } else if koreanEndBeforeSpace(i) {
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

    mutating func emit(_ boundary: Int, _ body: (Int) -> Void) {
        guard boundary > lastEmitted, boundary < end else { return }
        flushListItems(upTo: boundary, body)
        guard boundary > lastEmitted else { return }
        body(boundary)
        lastEmitted = boundary
        sentenceStart = boundary
    }

    /// Emits the list items that start at or before `offset`. Called at
    /// every candidate, and most paragraphs are no list: the test is inlined.
    @inline(__always)
    mutating func flushListItems(upTo offset: Int, _ body: (Int) -> Void) {
        guard nextListItem < listStarts.count else { return }
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
    mutating func terminator(at t: Int, kind: TerminatorKind, _ body: (Int) -> Void) -> Int {
        // "[...]", "(?)", and marks that open a sentence ("... and then")
        // are not terminators. A quote that also closes (straight " and ',
        // German “ ‘ «) opens only when it does not end a word: in
        // `said "fine". Then`, `„gut“.` and `»gut«.` it closes the
        // quotation and the terminator after it ends the sentence.
        if (t > start && opens(at: t - 1)) || onlyMarkers(in: sentenceStart..<t, orOpeners: true) {
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
            // After a CJK full stop (。！？) a curly “ or ‘ opens the next
            // sentence (`成果。“第二届`): Chinese and Japanese use them as
            // English does, never as German closers, and their closers ” ’
            // stay with the sentence before (`“好。”然后`).
            if kind == .cjk, u == 0x201C || u == 0x2018 { break }
            // “ ‘ « ‹ close German quotations („so“, »so«) when attached.
            if CharacterClass.isCloser(u) || CharacterClass.terminator(u) != nil || CharacterClass.closesWhenAttached(u) {
                closedQuote = closedQuote || CharacterClass.isClosingQuote(u) || CharacterClass.closesWhenAttached(u)
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

    static func merge(_ a: TerminatorKind, _ b: TerminatorKind) -> TerminatorKind {
        if a == .strong || b == .strong { return .strong }
        if a == .cjk || b == .cjk { return .cjk }
        return .ellipsis
    }

    mutating func endsSentence(terminator t: Int, kind: TerminatorKind, closersEnd: Int,
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
        // After a quotation ("“간다.” 하며") and, in Korean, after an
        // unquoted question or exclamation ("뭐지? 하고", thought quoted
        // without marks), a word that continues a clause goes on with the
        // sentence; but after a bare terminator, the determiner 한 ("한
        // 목격자는"), the noun 말 ("말을 바꾸면") and 하여튼 start one, and
        // after a bare period every word does ("남기지요. 하며 소리치지요").
        if closedQuote || (rules.koreanEndings && kind != .period),
           quotativeParticle(at: next, spaced: true),
           closedQuote || !KoreanEndings.startsSentence(text, at: next, limit: end) { return false }
        guard let word = firstLetter(from: next) else { return true }
        if rules.lowercaseContinues && CharacterClass.isLowercase(word.scalar) {
            switch kind {
            case .strong:
                guard questionEndsBeforeLowercase(terminator: t, closersEnd: closersEnd, next: next, word: word.offset) else { return false }
                lowercaseStarts = true
                return true
            case .period:
                return lowercaseStarts && word.offset == next && closersEnd == t + 1
                    && periodEndsBeforeLowercase(at: t)
            default:
                return false
            }
        }
        switch kind {
        case .strong:
            // "Yahoo! Inc. said": a "!" attached to a word and followed by a
            // company form is part of the company's name. (A lower-case word
            // after it, "Yahoo! and AOL", continues by the rule above.)
            return !(text[t] == 0x21 && closersEnd == t + 1 && t > sentenceStart
                && CharacterClass.isLetter(UInt32(text[t - 1])) && word.offset == next
                && isCompanyForm(at: next))
        case .cjk:
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

    /// A "?" or "!" followed by a space and a lower-case word ends the
    /// sentence when nothing says the word goes on with it: informal
    /// writing that does not capitalise ("where did you grow up? in
    /// india?") and questions in a row ("What? where?"). It goes on after a
    /// closing quote or bracket (`"Who?" he asked`, `(why?) and`), before a
    /// dash or an opener (`Ты куда? — спросила она`, `¡Hola! ¿qué…`), after
    /// anything but a letter or digit, after a Spanish question opened
    /// with "¿" in the same sentence, and
    /// after a "!" attached to a capitalised word, a name
    /// (`Yahoo! in`, `Jeopardy! champion`). A period never does: "e.g. a",
    /// "approx. five" (abbreviations outside any list) are too common.
    func questionEndsBeforeLowercase(terminator t: Int, closersEnd: Int, next: Int, word: Int) -> Bool {
        // Attached to a word: `Wehrpflicht'',? fragte` is a quotation.
        guard word == next, t > sentenceStart,
              CharacterClass.isLetter(UInt32(text[t - 1])) || CharacterClass.isDigit(text[t - 1]) else { return false }
        // Spanish opens its questions and exclamations (¿ ¡): a lower-case
        // word after one closed inside the sentence goes on with it (RAE:
        // "Me preguntó ¿vienes mañana? y le dije que sí").
        if t - sentenceStart <= Self.lookahead * 4,
           (sentenceStart..<t).contains(where: { text[$0] == 0xBF || text[$0] == 0xA1 }) { return false }
        var runEnd = t
        while runEnd < closersEnd, CharacterClass.terminator(text[runEnd]) != nil { runEnd += 1 }
        guard runEnd == closersEnd else { return false }
        if text[t] == 0x21 && runEnd == t + 1 {
            let token = tokenStart(before: t)
            guard token < t else { return false }
            return !CharacterClass.isUppercase(CharacterClass.scalar(at: token, in: text))
        }
        return true
    }

    /// In writing that starts sentences in lower case (``lowercaseStarts``):
    /// a period after a lower-case word of three letters or more that is
    /// no abbreviation ("to party. max and jen") ends the sentence; "etc.",
    /// "approx.", "e.g." and single letters do not.
    func periodEndsBeforeLowercase(at t: Int) -> Bool {
        let tokenStart = self.tokenStart(before: t)
        let token = tokenStart..<t
        guard token.count >= 3, token.allSatisfy({ CharacterClass.isLowercase(UInt32(text[$0])) }) else { return false }
        return prefixKind(token) == nil
    }

    /// The rules for a single "." followed by space and a word that is not
    /// lower-case.
    func periodEndsSentence(at t: Int, nextWord: Int) -> Bool {
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
}
