// KoreanEndings.swift: Korean sentences that end without punctuation, told
// by their final verb ending (-다, -요, -죠, -까 …) before a new clause.

/// Decides whether a Korean word ends a sentence by its ending alone.
///
/// Informal Korean (chat, blogs, transcribed speech) often drops the final
/// period, but sentence-final endings are distinctive: 먹었다, 했어요, 그렇죠,
/// 합니까. A word ending in one of them, followed by white space and a word
/// that does not continue the clause (하며, 보니, 싶다 …), ends the sentence.
/// Ambiguous endings are narrowed by the syllable before them: 필요 and 중요
/// are nouns; 하니까 is "because", while 합니까 asks.
enum KoreanEndings {
    /// Decorations that may trail a sentence: Hangul letters on their own
    /// (ㅋㅋ, ㅎㅎ, ㅠㅠ), ~ ^ ; and emoji (any astral unit, U+2600–U+27BF).
    static func isTrailer(_ u: UInt16) -> Bool {
        switch u {
        case 0x7E, 0x5E, 0x3B, 0x3131...0x318E, 0x2600...0x27BF, 0x2B50, 0x2B55, 0xD800...0xDFFF: return true
        default: return false
        }
    }

    /// Laughing or crying letters (ㅋ ㅎ ㅠ ㅜ), two or more of which end a
    /// sentence in informal writing ("맛있다ㅎㅎ").
    static func isLaughter(_ u: UInt16) -> Bool { u == 0x314B || u == 0x314E || u == 0x3160 || u == 0x315C }

    /// Whether the Hangul word in `word` (syllables only, at least two) ends
    /// a sentence.
    static func endsSentence(_ text: UnsafeBufferPointer<UInt16>, word: Range<Int>) -> Bool {
        guard word.count >= 2 else { return false }
        let last = text[word.upperBound - 1]
        let before = text[word.upperBound - 2]
        switch last {
        case 0xB2E4: // 다, but not 바다 (sea), 마다 (every), 보다 (than), 죄다 (all)
            return before != 0xBC14 && before != 0xB9C8 && before != 0xBCF4 && before != 0xC8C4
        case 0xC694: // 요, but not the nouns 필요, 중요, 주요 …, nor -이요, the
            // copula's enumerating form ("A의 자화상이요 B의 …": "is A, and").
            return !nounsEndingInYo.contains(before) && before != 0xC774
        case 0xB124: // 네 (했네, 좋네), but not the noun 동네 (neighbourhood)
            return before != 0xB3D9
        case 0xC8E0, 0xB0D0, 0xD568, 0xB428, 0xC148: // 죠 냐 함 됨 셈
            return true
        case 0xB4EF: // 듯: final only after an adnominal ending, where it is
            // 듯하다 cut short (가는듯, 한듯, 할듯, 하던듯); after a bare stem
            // it is the connective "as if" (부리듯), and 이렇듯, 그렇듯,
            // 불현듯 are adverbs.
            let coda = jongseong(before)
            return (coda == 4 || coda == 8 || before == 0xB358) && before != 0xD604
        case 0xC6A9, 0xC720, 0xC96C: // 용 유 쥬 (dialect and cute 요), after a verb stem only
            return verbStemsBeforeYu.contains(before)
        case 0xAE4C: // 까: 할까, 일까; after 니 only 습니까 / ㅂ니까 (하니까 is "because")
            guard before == 0xB2C8 else { return before != 0xAE4C }
            guard word.count >= 3 else { return false }
            let third = text[word.upperBound - 3]
            return third == 0xC2B5 || jongseong(third) == 17
        case 0xAD70: // 군 after 는 or a past stem (하는군, 했군), not 장군, 해군
            return before == 0xB294 || jongseong(before) == 20
        case 0xC57C: // 야 after 거 이 니 뭐 다 지 게 (거야, 뭐야); not 해야 (must), 분야
            return stemsBeforeYa.contains(before)
        case 0xC784: // 임 (것임, 맛집임), but not the nouns 게임, 모임, 타임
            return before != 0xAC8C && before != 0xBAA8 && before != 0xD0C0
        case 0xC9C0: // 지: final after a past or future stem (큰일났지, 알겠지,
            // 있지), in 그렇지/이렇지, and in the southern-dialect past 붓지
            // (떨어졌붓지, 버렸지 cut short). Everywhere else -지 is a connective
            // (떠나지 못한, 받지 않는: the negative auxiliary follows) or the
            // word is a noun (가지, 잡지, 식민지, 이미지) or 까지, 인지, 든지.
            return jongseong(before) == 20 || before == 0xB807 || before == 0xBD93
        case 0xC74C: // 음 after a past or existential stem (했음, 없음), not 마음, 다음
            return jongseong(before) == 20 || before == 0xC5C6 || before == 0xC788
        default:
            return false
        }
    }

    /// Whether the word starting at `start` continues the clause before it
    /// (하며, 해도, 보니, 싶다, 라고, 않다 …) rather than starting a sentence.
    /// `flags` is ``UnitClassTable/flags`` (passed in: the hot callers hold it).
    static func continuesClause(_ text: UnsafeBufferPointer<UInt16>, at start: Int, limit: Int,
                                flags: UnsafeBufferPointer<UInt8>) -> Bool {
        guard start < limit, flags[Int(text[start])] & UnitClassTable.koreanContinuationInitial != 0 else {
            return false
        }
        // Every continuation is one or two syllables: the word's first two
        // syllables, packed as ``pack(_:)`` packs the lists, are compared
        // with them, with no array per entry to walk.
        let first = UInt32(text[start]) << 16
        let second = start + 1 < limit && CharacterClass.isHangulSyllable(text[start + 1]) ? UInt32(text[start + 1]) : 0
        if continuationPrefixes.contains(first) || (second != 0 && continuationPrefixes.contains(first | second)) {
            return true
        }
        // "하지 말고", "하지 마": the quoted word's negative imperative
        // ("환원한다 하지 말고": don't just say you return it).
        if text[start] == 0xD558, second == 0xC9C0, start + 3 < limit, CharacterClass.isWhiteSpace(text[start + 2]),
           text[start + 3] == 0xB9D0 || text[start + 3] == 0xB9C8 {
            return true
        }
        // A whole word of one syllable: nothing Hangul follows it.
        return second == 0 && wholeWordContinuations.contains(first)
    }

    /// Whether a word that ``endsSentence(_:word:)`` accepts is as often a
    /// mid-sentence form, so that it ends a sentence only where the text
    /// does not punctuate (``ParagraphScan/koreanEnding(at:_:)``):
    /// - -다 on a bare stem (태우다, 시달리다, 강조하다): the dictionary form
    ///   or -다가 cut short ("태우다 (가)"); tense and style markers (했다,
    ///   한다, 합니다, 것이다, 좋다 after a consonant) are not ambiguous.
    /// - 요 after a noun (선배요, 상처요: listing "is A, and …"), that is
    ///   after a syllable that is no verb ending (-어요, -세요, -네요 …).
    /// - -ㄹ까 (받을까, 않을까, 할까): as often an embedded question before
    ///   싶다, 하다, 걱정이다 as a question of its own.
    /// - 네 after a stem without ㅆ (좋네; but 아테네, 르네) and 이야 (원인이야:
    ///   "as for the cause").
    static func isAmbiguous(_ text: UnsafeBufferPointer<UInt16>, word: Range<Int>) -> Bool {
        guard word.count >= 2 else { return false }
        let last = text[word.upperBound - 1]
        let before = text[word.upperBound - 2]
        switch last {
        case 0xB2E4: // 다
            return jongseong(before) == 0 && before != 0xB2C8 && before != 0xC774 // 니 이
        case 0xC694: // 요
            return !verbEndingsBeforeYo.contains(before)
        case 0xAE4C: // 까
            return jongseong(before) == 8
        case 0xB124: // 네 on a stem without a past or future ㅆ (좋네, 가네): as
            // often the end of a noun or a name (아테네, 르네)
            return jongseong(before) != 20
        case 0xC57C: // 이야: the copula's end, or "as for" (원인이야 여러 가지)
            return before == 0xC774
        default:
            return false
        }
    }

    /// Syllables that end a verb before a polite 요: 아 어 여 해 와 워 봐 줘
    /// 져 려 러 래 대 세 네 데 게 고 구 예 에 되 돼 라 자 지 까 나 가 니 든 걸
    /// 군 서 도 죠 야 용.
    private static let verbEndingsBeforeYo: [UInt16] = Array(
        "아어여해와워봐줘져려러래대세네데게고구예에되돼라자지까나가니든걸군서도죠야용".utf16)

    /// Whether the word at `start` is a verb in a connective ending (나오니까,
    /// 갔더니, 웃으면서) that links it to the clause before, read after -다
    /// as -다가 ("들어갔다 나오니까": went in, and on coming out). The
    /// demonstrative verbs (그러니까, 이러면서, 그렇더니, 그래서 …) begin
    /// sentences as conjunctions and are not counted.
    static func isConnectiveVerb(_ text: UnsafeBufferPointer<UInt16>, at start: Int, limit: Int) -> Bool {
        var end = start
        while end < limit, CharacterClass.isHangulSyllable(text[end]) { end += 1 }
        guard end - start >= 3, end == limit || CharacterClass.isWhiteSpace(text[end]) else { return false }
        switch text[start] {
        case 0xADF8, 0xC774, 0xC800: // 그 이 저: 그러니까, 이러더니, 저러면서
            let second = text[start + 1]
            if second == 0xB7EC || second == 0xB807 || second == 0xB798 { return false } // 러 렇 래
        default: break
        }
        let ending = (text[end - 2], text[end - 1])
        return ending == (0xB2C8, 0xAE4C) || ending == (0xB354, 0xB2C8) || ending == (0xBA74, 0xC11C) // 니까 더니 면서
    }

    /// Whether the word at `start` is a negative auxiliary (못하다, 않다,
    /// 말다, 아니하다): after a word in -지 it completes the verb
    /// (받지 못한다, 했지 않니), so the -지 is a connective, not an end.
    static func startsNegativeAuxiliary(_ text: UnsafeBufferPointer<UInt16>, at start: Int, limit: Int) -> Bool {
        guard start < limit else { return false }
        switch text[start] {
        case 0xBABB, 0xC54A, 0xB9D0, 0xB9C8: return true // 못 않 말 마
        case 0xC544: return start + 1 < limit && text[start + 1] == 0xB2C8 // 아니
        default: return false
        }
    }

    /// Words that ``continuesClause(_:at:limit:flags:)`` takes for a
    /// continuation but that, after a terminator outside a quotation, start
    /// a sentence as often as not: the determiner 한 (one, a: "한 목격자는"),
    /// the noun 말 (word: "말을 바꾸면", "말하자면"; not 말아, 말고, which
    /// continue "…지 마"), and the adverb 하여튼 (anyway).
    static func startsSentence(_ text: UnsafeBufferPointer<UInt16>, at start: Int, limit: Int) -> Bool {
        guard start < limit else { return false }
        let second: UInt16 = start + 1 < limit ? text[start + 1] : 0x20
        switch text[start] {
        case 0xD55C: // 한, standing alone
            return !CharacterClass.isHangulSyllable(second)
        case 0xB9D0: // 말, then anything but 아 or 고
            return second != 0xC544 && second != 0xACE0
        case 0xD558: // 하여튼
            return second == 0xC5EC && start + 2 < limit && text[start + 2] == 0xD2BC
        default:
            return false
        }
    }

    /// Whether a syllable can end a sentence-final word at all: the quick
    /// test before ``endsSentence(_:word:)``.
    @inline(__always)
    static func isFinalSyllable(_ u: UInt16) -> Bool {
        switch u {
        case 0xB2E4, 0xC694, 0xC8E0, 0xB124, 0xB0D0, 0xD568, 0xB428, 0xC148, 0xB4EF, 0xC6A9, 0xC720, 0xC96C,
             0xAE4C, 0xAD70, 0xC57C, 0xC784, 0xC9C0, 0xC74C:
            return true
        default:
            return false
        }
    }

    /// Words starting with these continue the clause before them: 하고, 하며,
    /// 하면, 하는, 하던, 하더, 하드, 하여, 하자, 하니, 하곤, 한다, 했다, 했고,
    /// 했던, 해서, 해도, 해야, 라고, 라며, 라는, 보니, 보면, 싶, 않, 못해,
    /// 말 (말아, 말고), 주셨, 주세, 주었, 줬, 드렸, 드려, 드릴, 놓, 놨.
    private static let continuations = [
        "하고", "하며", "하면", "하는", "하던", "하더", "하드", "하여", "하자", "하니", "하곤", "한다", "했다",
        "했고", "했던", "해서", "해도", "해야", "라고", "라며", "라는", "보니", "보면", "싶", "않", "못해",
        "말", "주셨", "주세", "주었", "줬", "드렸", "드려", "드릴", "놓", "놨",
    ]

    /// Whole words that continue the clause: 고, 며, 할, 한, 함, 마.
    private static let wholeWords = ["고", "며", "할", "한", "함", "마"]

    /// A word of one or two syllables as one number: the first syllable in
    /// the high half, the second (or 0) in the low half.
    private static func pack(_ word: String) -> UInt32 {
        let units = Array(word.utf16)
        precondition((1...2).contains(units.count), "a continuation is one or two syllables")
        return UInt32(units[0]) << 16 | (units.count == 2 ? UInt32(units[1]) : 0)
    }

    /// ``continuations``, packed (see ``continuesClause(_:at:limit:flags:)``).
    private static let continuationPrefixes: [UInt32] = continuations.map(pack)

    /// ``wholeWords``, packed.
    private static let wholeWordContinuations: [UInt32] = wholeWords.map(pack)

    /// The first syllables of all continuations, for a quick rejection
    /// (through ``UnitClassTable/koreanContinuationInitial``).
    static let continuationInitials: Set<UInt16> = Set((continuations + wholeWords).compactMap(\.utf16.first))

    /// Whether a word trailing off with "..." leaves its clause open: it ends
    /// in a connective (-는데, -고, -서, -며, -면, -지만, -니까, -게, -에) or is
    /// a one-syllable interjection (어..., 네...) or a filler (말이야...).
    static func trailsOff(_ text: UnsafeBufferPointer<UInt16>, word: Range<Int>) -> Bool {
        guard let last = word.last.map({ text[$0] }) else { return true }
        if word.count == 1 { return true }
        return openEndings.contains(last) || fillers.contains { $0.elementsEqual(text[word]) }
    }

    /// Discourse fillers that hold the floor: 말이야, 말이죠, 있잖아.
    private static let fillers: [[UInt16]] = ["말이야", "말이죠", "있잖아"].map { Array($0.utf16) }

    // The syllable lists below are a few entries each: arrays, searched
    // linearly, are quicker to ask than sets, which hash every question.

    /// 데 고 서 며 면 만 까 게 에 이
    private static let openEndings: [UInt16] = [0xB370, 0xACE0, 0xC11C, 0xBA70, 0xBA74, 0xB9CC, 0xAE4C, 0xAC8C, 0xC5D0, 0xC774]

    /// Nouns that end in 요: 필요, 중요, 주요, 수요, 소요, 강요, 불요.
    private static let nounsEndingInYo: [UInt16] = [0xD544, 0xC911, 0xC8FC, 0xC218, 0xC18C, 0xAC15, 0xBD88]

    /// Stems before 용/유/쥬: 아 어 여 해 봐 와 워 줘 져 혀 셔 네 에 게 데 겠.
    private static let verbStemsBeforeYu: [UInt16] = [
        0xC544, 0xC5B4, 0xC5EC, 0xD574, 0xBD10, 0xC640, 0xC6CC, 0xC918, 0xC838, 0xD600, 0xC154,
        0xB124, 0xC5D0, 0xAC8C, 0xB370, 0xACA0,
    ]

    /// Syllables before a sentence-final 야: 거 이 니 뭐 다 지 게.
    private static let stemsBeforeYa: [UInt16] = [0xAC70, 0xC774, 0xB2C8, 0xBB50, 0xB2E4, 0xC9C0, 0xAC8C]

    /// The final-consonant index (0 = none) of a Hangul syllable.
    private static func jongseong(_ u: UInt16) -> Int { Int(u - 0xAC00) % 28 }
}
