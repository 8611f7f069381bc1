// KoreanEndingTests.swift: reader mode's Korean ending rules (issue 19,
// item 3): connective -지, nouns in 지, and endings that are as often
// mid-sentence forms must not split text that punctuates its sentences,
// while unpunctuated writing still splits at its endings.
import Foundation
import LecternText
import Testing

/// The sentences reader mode finds in Korean `text`, as content strings.
private func koreanSentences(_ text: String) -> [String] {
    let document = DocumentText(text)
    let table = SentenceTable(document: document, mode: .reader, language: Language("ko"))
    return table.map { document.text(in: $0.content) }
}

struct KoreanEndingCase: Sendable, CustomTestStringConvertible {
    let why: String
    let text: String
    let sentences: [String]
    var testDescription: String { why }
}

/// Punctuated text: the split falls where the punctuation says, and only there.
let punctuatedKoreanCases: [KoreanEndingCase] = [
    KoreanEndingCase(why: "-지 before the negative auxiliary 못하다",
                     text: "남극을 떠나지 못한 펭귄들이 모였다. 그들은 추위를 견뎠다.",
                     sentences: ["남극을 떠나지 못한 펭귄들이 모였다.", "그들은 추위를 견뎠다."]),
    KoreanEndingCase(why: "-지 못한 것이었다",
                     text: "그는 끝내 인정을 받지 못한 것이었다. 다음 날 떠났다.",
                     sentences: ["그는 끝내 인정을 받지 못한 것이었다.", "다음 날 떠났다."]),
    KoreanEndingCase(why: "-지 before 않다 and 말다",
                     text: "쉽게 포기하지 않는다. 절대 잊지 말자.",
                     sentences: ["쉽게 포기하지 않는다.", "절대 잊지 말자."]),
    KoreanEndingCase(why: "the noun 가지 (kind)",
                     text: "여러 가지 방안이 논의되었다. 결론은 없었다.",
                     sentences: ["여러 가지 방안이 논의되었다.", "결론은 없었다."]),
    KoreanEndingCase(why: "nouns in 지: 잡지, 식민지, 이미지",
                     text: "신문, 방송, 잡지 등이 있다. 식민지 유산이 남았다. 그 이미지 속에서 살았다.",
                     sentences: ["신문, 방송, 잡지 등이 있다.", "식민지 유산이 남았다.", "그 이미지 속에서 살았다."]),
    KoreanEndingCase(why: "까지, 인지, 든지 are particles",
                     text: "얼마든지 가능하다. 어디까지 왔는지 모른다.",
                     sentences: ["얼마든지 가능하다.", "어디까지 왔는지 모른다."]),
    KoreanEndingCase(why: "the adverbs 이렇듯, 그렇듯 and the connective -듯 (as if)",
                     text: "이렇듯 출판사는 정보를 제공한다. 물 쓰듯 돈을 썼다.",
                     sentences: ["이렇듯 출판사는 정보를 제공한다.", "물 쓰듯 돈을 썼다."]),
    KoreanEndingCase(why: "the noun 동네",
                     text: "우리 동네 사람들은 친절하다.",
                     sentences: ["우리 동네 사람들은 친절하다."]),
    KoreanEndingCase(why: "-이요 and noun+요 list (is A, and …)",
                     text: "그는 출판계의 선배요 나의 스승이다. 그것은 시대의 자화상이요 거울이다.",
                     sentences: ["그는 출판계의 선배요 나의 스승이다.", "그것은 시대의 자화상이요 거울이다."]),
    KoreanEndingCase(why: "bare-stem -다 is -다가 cut short",
                     text: "기름을 태우다 꺼져 버렸다. 또 회한에 시달리다 떠났다.",
                     sentences: ["기름을 태우다 꺼져 버렸다.", "또 회한에 시달리다 떠났다."]),
    KoreanEndingCase(why: "-ㄹ까 as an embedded question",
                     text: "비판을 받을까 두려웠다. 그것도 필요하지 않을까 생각한다.",
                     sentences: ["비판을 받을까 두려웠다.", "그것도 필요하지 않을까 생각한다."]),
    KoreanEndingCase(why: "-다 before a verb in -니까/-더니 is -다가",
                     text: "가게에 들어갔다 나오니까 비가 그쳤다. 잠깐 누웠다 일어났더니 밤이었다.",
                     sentences: ["가게에 들어갔다 나오니까 비가 그쳤다.", "잠깐 누웠다 일어났더니 밤이었다."]),
    KoreanEndingCase(why: "but the conjunction 그러니까 begins a sentence",
                     text: "일을 다 끝냈다 그러니까 이제 쉬자.",
                     sentences: ["일을 다 끝냈다", "그러니까 이제 쉬자."]),
    KoreanEndingCase(why: "a distinctive ending still splits a punctuated paragraph",
                     text: "네이버 아니면 구글일 것이다 물론 다음도 있지만 제외하겠다.",
                     sentences: ["네이버 아니면 구글일 것이다", "물론 다음도 있지만 제외하겠다."]),
    KoreanEndingCase(why: "네 at the end of a name or noun (아테네, 르네)",
                     text: "독일군이 아테네 정복을 선언했다. 르네 웰렉은 둘을 구분했다.",
                     sentences: ["독일군이 아테네 정복을 선언했다.", "르네 웰렉은 둘을 구분했다."]),
    KoreanEndingCase(why: "이야 as \"as for\" (원인이야 여러 가지)",
                     text: "이별의 원인이야 여러 가지일 수 있다. 그래도 슬프다.",
                     sentences: ["이별의 원인이야 여러 가지일 수 있다.", "그래도 슬프다."]),
    KoreanEndingCase(why: "하지 말고 after a quoted word",
                     text: "재산을 환원한다 하지 말고 진짜 해 보라. 그것이 요구다.",
                     sentences: ["재산을 환원한다 하지 말고 진짜 해 보라.", "그것이 요구다."]),
    KoreanEndingCase(why: "after a period, 한 (one), 말 (word) and 하며 start a sentence",
                     text: "그들은 복종하기를 거부했다. 한 목격자는 이렇게 전한다. 말을 바꾸면 반란이었다. 반쯤 남기지요. 하며 소리쳤다.",
                     sentences: ["그들은 복종하기를 거부했다.", "한 목격자는 이렇게 전한다.", "말을 바꾸면 반란이었다.",
                                 "반쯤 남기지요.", "하며 소리쳤다."]),
    KoreanEndingCase(why: "a question quoted without marks goes on with 하고",
                     text: "그는 뭐지? 하고 고개를 갸웃했다. 이상한 일이었다.",
                     sentences: ["그는 뭐지? 하고 고개를 갸웃했다.", "이상한 일이었다."]),
]

@Test(arguments: punctuatedKoreanCases)
func koreanEndingsFollowPunctuation(_ example: KoreanEndingCase) {
    #expect(koreanSentences(example.text) == example.sentences)
}

/// Unpunctuated writing (chat, blogs, dialect): the endings still split.
let unpunctuatedKoreanCases: [KoreanEndingCase] = [
    KoreanEndingCase(why: "past -지 ends a sentence",
                     text: "오늘 정말 피곤했지 내일은 쉬어야겠다",
                     sentences: ["오늘 정말 피곤했지", "내일은 쉬어야겠다"]),
    KoreanEndingCase(why: "future -겠지 and 그렇지",
                     text: "너도 알겠지 그렇지 우리는 친구다",
                     sentences: ["너도 알겠지", "그렇지", "우리는 친구다"]),
    KoreanEndingCase(why: "the dialect past 붓지",
                     text: "사막에 떨어졌붓지 모다에 머가 나간기라",
                     sentences: ["사막에 떨어졌붓지", "모다에 머가 나간기라"]),
    KoreanEndingCase(why: "-지 않다 continues, the -다 after it ends",
                     text: "그런 일은 있지 않았다 우리는 몰랐다",
                     sentences: ["그런 일은 있지 않았다", "우리는 몰랐다"]),
    KoreanEndingCase(why: "an ambiguous bare-stem -다 splits where nothing is punctuated",
                     text: "오늘은 정말 기쁘다 내일 또 보자",
                     sentences: ["오늘은 정말 기쁘다", "내일 또 보자"]),
    KoreanEndingCase(why: "an adnominal 듯 ends (가는듯)",
                     text: "비가 올듯 우산을 챙기자",
                     sentences: ["비가 올듯", "우산을 챙기자"]),
    KoreanEndingCase(why: "after the last terminator, the ambiguous endings are back",
                     text: "어제는 비가 왔다. 오늘은 정말 기쁘다 내일 또 보자",
                     sentences: ["어제는 비가 왔다.", "오늘은 정말 기쁘다", "내일 또 보자"]),
]

@Test(arguments: unpunctuatedKoreanCases)
func koreanEndingsSplitUnpunctuatedText(_ example: KoreanEndingCase) {
    #expect(koreanSentences(example.text) == example.sentences)
}
