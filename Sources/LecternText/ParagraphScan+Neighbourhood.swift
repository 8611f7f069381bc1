// ParagraphScan+Neighbourhood.swift: small tests around a candidate: the
// word before it, what follows it, quotations, ellipses, list markers.

extension ParagraphScan {
    mutating func embedded(terminator t: Int, afterClosers: Int) -> Bool {
        guard sawOpener else { return false }
        if quotations == nil {
            quotations = QuotationSpans(text: text, flags: flags, range: start..<end,
                                        includeQuotations: rules.quotationsAreEmbedded)
        }
        return quotations?.embeds(terminator: t, afterClosers: afterClosers) ?? false
    }

    /// Whether the mark at `i` opens a quotation or bracket. Marks that
    /// open in one convention and close in another (" ' ＂ ＇, and “ ‘ « ‹,
    /// which close German quotations) open only at the start of a word:
    /// after white space, another opener, or the paragraph's start. Attached
    /// to the end of a word ("fine", „gut“, »gut«) they close. A run of
    /// them (the typewriter ``so'' or "'nested'") goes with what precedes
    /// the run.
    func opens(at i: Int) -> Bool {
        let u = text[i]
        guard CharacterClass.isOpener(u) else { return false }
        guard CharacterClass.closesWhenAttached(u) else { return true }
        var j = i
        while j > start, j > i - Self.lookahead, CharacterClass.closesWhenAttached(text[j - 1]) { j -= 1 }
        return j == start || CharacterClass.isWhiteSpace(text[j - 1]) || CharacterClass.isOpener(text[j - 1])
    }

    /// ". . ." (dots separated by single spaces, at least three) at `t`.
    func spacedEllipsis(at t: Int) -> (dots: Int, end: Int)? {
        var dots = 1
        var i = t + 1
        while i + 1 < end, text[i] == 0x20, text[i + 1] == 0x2E {
            dots += 1
            i += 2
        }
        return dots >= 3 ? (dots, i) : nil
    }

    /// How far the neighbourhood tests look, in code units, so that no
    /// input (". - . - . -" a megabyte long) makes a scan quadratic.
    static let lookahead = 64

    /// The first letter or digit at or after `i`, skipping white space,
    /// openers, dots and dashes ("— спросила она"); nil if none within
    /// ``lookahead`` units or before the paragraph's end.
    func firstLetter(from i: Int) -> (offset: Int, scalar: UInt32)? {
        var i = i
        let limit = Swift.min(end, i + Self.lookahead)
        while i < limit {
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
    func quotativeParticle(at next: Int, spaced: Bool) -> Bool {
        let u = text[next]
        switch rules.language.code {
        case "ja":
            return !spaced && (u == 0x3068 || u == 0x3063)   // と っ
        case "ko":
            return spaced ? KoreanEndings.continuesClause(text, at: next, limit: end, flags: flags) : CharacterClass.isHangulSyllable(u)
        default:
            return false
        }
    }

    /// Where the word ending at `t` starts (after white space or an opener).
    func tokenStart(before t: Int) -> Int {
        var i = t
        while i > sentenceStart {
            let u = text[i - 1]
            if CharacterClass.isWhiteSpace(u) || CharacterClass.isOpener(u) || ListMarkers.isBullet(u) { break }
            i -= 1
        }
        return i
    }

    func word(at i: Int) -> String {
        var j = i
        while j < end, CharacterClass.isLetter(UInt32(text[j])) { j += 1 }
        return String(decoding: text[i..<j], as: UTF16.self)
    }

    /// The prefix kind of a token; the token joined with the one before it,
    /// when that ends in a period ("т." + "д" → "т.д"), is tried first, being
    /// the more specific.
    func prefixKind(_ token: Range<Int>) -> NonbreakingPrefixes.Kind? {
        if let previous = previousAbbreviation(before: token.lowerBound),
           let kind = rules.prefixes.kind(of: text[previous], text[token]) {
            return kind
        }
        return rules.prefixes.kind(of: text[token])
    }

    /// The token before white space at `i` if it ends in a period ("т.").
    func previousAbbreviation(before i: Int) -> Range<Int>? {
        var i = i
        guard i > sentenceStart, CharacterClass.isWhiteSpace(text[i - 1]) else { return nil }
        while i > sentenceStart, CharacterClass.isWhiteSpace(text[i - 1]) { i -= 1 }
        guard i > sentenceStart, text[i - 1] == 0x2E else { return nil }
        let previous = tokenStart(before: i)
        return previous < i ? previous..<i : nil
    }

    /// "U.S", "e.g", "P.M", "т.е", "J.-P": letters in groups of one or two,
    /// between dots (a hyphen may follow a dot).
    func isAcronym(_ token: Range<Int>) -> Bool {
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
    func isListOrdinal(_ token: Range<Int>) -> Bool {
        if token.count == 1, CharacterClass.isLetter(UInt32(text[token.lowerBound])) { return true }
        return token.count <= 3 && token.allSatisfy { CharacterClass.isDigit(text[$0]) }
    }

    /// Whether a range holds only white space and bullets (and openers);
    /// false beyond ``lookahead`` units.
    func onlyMarkers(in range: Range<Int>, orOpeners: Bool = false) -> Bool {
        guard range.count <= Self.lookahead else { return false }
        return range.allSatisfy {
            CharacterClass.isWhiteSpace(text[$0]) || ListMarkers.isBullet(text[$0])
                || (orOpeners && CharacterClass.isOpener(text[$0]))
        }
    }

    /// Past decorations that trail a sentence after its terminator and a
    /// space: emoji and emoticons ("^^", "ㅋㅋ"), numbered citations
    /// ("[17]", "[3, 4]"), and in Korean a short
    /// parenthetical ("하다. (6회 우승)"); each must end at white space or at
    /// the paragraph's end. Returns `i` when there are none.
    func afterTrailers(from i: Int) -> Int {
        var i = i
        while i < end {
            var j = i
            if text[j] == 0x5B, let citationEnd = citation(at: j),
               (j + 1..<citationEnd - 1).allSatisfy({ CharacterClass.isDigit(text[$0]) || text[$0] == 0x2C
                   || text[$0] == 0x20 || text[$0] == 0x2013 || text[$0] == 0x2D }) {
                j = citationEnd   // "Dulwich. [17] Placed": a numbered citation
            } else if rules.koreanEndings, text[j] == 0x28 {
                while j < end, j - i < 40, text[j] != 0x29 { j += 1 }
                j = j < end && text[j] == 0x29 ? j + 1 : i
            } else if rules.lowercaseContinues && Self.isFaceStart(text[j]) {
                // An emoji ("⭐️", joined by U+FE0F) or an emoticon (":)",
                // ";-)"); a bullet (✔, ▶) starts the next item instead.
                j = faceEnd(at: j)
            } else {
                while j < end, KoreanEndings.isTrailer(text[j]), text[j] != 0x3B, !ListMarkers.isBullet(text[j]) { j += 1 }
            }
            guard j > i, j == end || CharacterClass.isWhiteSpace(text[j]) else { return i }
            while j < end, CharacterClass.isWhiteSpace(text[j]) { j += 1 }
            i = j
        }
        return i
    }

    /// A citation mark right after a terminator: "[12]", "[참고 2]" (at most
    /// 12 units between the brackets).
    func citation(at i: Int) -> Int? {
        var j = i + 1
        while j < end, j - i <= 12, text[j] != 0x5D { j += 1 }
        return j < end && text[j] == 0x5D && j > i + 1 ? j + 1 : nil
    }

    /// The legal forms that follow a company's name ("Inc.", "GmbH",
    /// "S.A."), without a final period: a closed class, like the
    /// abbreviations, and none of them a word that starts a sentence.
    static let companyForms: Set<String> = ["Inc", "Corp", "Ltd", "LLC", "LLP", "PLC", "GmbH",
                                            "S.A", "N.V", "B.V", "S.p.A", "S.L", "S.A.S"]

    /// Whether a company form ("Inc", "S.A.") starts at `i` and ends at
    /// white space, ",", ";", ")" or the paragraph's end (one final "."
    /// allowed).
    func isCompanyForm(at i: Int) -> Bool {
        // Every form starts with an ASCII capital: most words after a "!"
        // are answered here, without building a String.
        guard i < end, text[i] &- 0x41 < 26 else { return false }
        var j = i
        while j < end, j - i < 8, CharacterClass.isLetter(UInt32(text[j])) || text[j] == 0x2E { j += 1 }
        guard j == end || CharacterClass.isWhiteSpace(text[j]) || text[j] == 0x2C || text[j] == 0x3B
                || text[j] == 0x29 else { return false }
        let tokenEnd = j > i && text[j - 1] == 0x2E ? j - 1 : j
        return tokenEnd > i && Self.companyForms.contains(String(decoding: text[i..<tokenEnd], as: UTF16.self))
    }

    func previousWordIsLowercase(before i: Int) -> Bool {
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
