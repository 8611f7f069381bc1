// SmallRuleTests.swift: issue 19's smaller rules (item 5), in several
// languages per rule.
import LecternText
import Testing

// MARK: Opening quotes and brackets after a CJK full stop

/// After 。！？ an opening quote or bracket starts the next sentence; a
/// closing one stays with the sentence before. Chinese uses the same curly
/// “ ” as English: “ after 。 opens, ” after 。 closes.
let openersAfterCJKStop: [SentenceCase] = [
    .init("zh", ["会议取得了重要成果。", "“第二届论坛将在北京举行。”"], separator: ""),
    .init("zh", ["会议取得了重要成果！", "‘第二届’论坛将在北京举行。"], separator: ""),
    .init("zh", ["他问：“好吗？”", "“好。”", "然后他走了。"], separator: ""),
    .init("zh", ["他说：“好。”", "然后他走了。"], separator: ""),
    .init("zh", ["他说完了。", "（全文完）"], separator: ""),
    .init("zh", ["这是重要的。", "《人民日报》报道了此事。"], separator: ""),
    .init("zh", ["这是重要的。", "【新华社】记者报道。"], separator: ""),
    .init("ja", ["会議は終わった。", "「次は何？」と彼は聞いた。"], separator: ""),
    .init("ja", ["会議は終わった。", "『源氏物語』を読んだ。"], separator: ""),
    .init("ja", ["会議は終わった？", "“次”はいつですか。"], separator: ""),
    .init("ja", ["彼は「行く。」", "それから帰った。"], separator: ""),
]

@Test(arguments: openersAfterCJKStop)
func openerAfterCJKStopStartsNextSentence(_ sample: SentenceCase) {
    sample.check()
}

/// German and English keep “ as a closer after their own full stop:
/// „gut.“ ends with the quotation.
@Test func curlyQuoteAfterLatinStopStillCloses() {
    #expect(readerSentences("Er sagte „gut.“ Dann ging er.", "de") == ["Er sagte „gut.“", "Dann ging er."])
    #expect(readerSentences("He said “fine.” Then he left.", "en") == ["He said “fine.”", "Then he left."])
}

// MARK: "!" inside a name

/// A "!" attached to a word does not end the sentence when a company form
/// ("Inc.", "GmbH", "S.A.") or a lower-case word follows it; before any
/// other word it does.
let exclamationInName: [SentenceCase] = [
    .init("en", ["Yahoo! Inc. said on Monday it would cut jobs."]),
    .init("en", ["Shares of Yahoo! Inc, the portal, rose.", "Then they fell."]),
    .init("en", ["He works for Yahoo! and AOL."]),
    .init("en", ["The host of Jeopardy! was there."]),
    .init("de", ["Die Yahoo! GmbH hat gestern berichtet."]),
    .init("de", ["Er arbeitet bei Yahoo! und AOL."]),
    .init("fr", ["Yahoo! S.A. a annoncé des résultats."]),
    .init("fr", ["Il travaille chez Yahoo! depuis dix ans."]),
    .init("es", ["Yahoo! S.L. anunció sus resultados."]),
    .init("es", ["Trabaja en Yahoo! desde hace años."]),
    .init("en", ["He won!", "Then he left."]),
    .init("en", ["Stop!", "Dr. Smith is here."]),
    .init("de", ["Halt!", "Die Polizei kommt."]),
    .init("fr", ["Arrête !", "Le train part."]),
]

@Test(arguments: exclamationInName)
func exclamationInsideName(_ sample: SentenceCase) {
    sample.check()
}

// MARK: Headlines and lead-in colons

/// A headline without final punctuation, and a lead-in that ends with a
/// colon, end their sentence where a line ends: every line end ends a
/// paragraph. Inside one line neither is a boundary: in UD's English and
/// French dev text a colon before a capital ends the sentence 30 times and
/// goes on 70 times ("Here's a tip: Don't …", "Remarque : Chypre …"), and
/// a headline run into its text looks like a sentence going on at a name.
@Test func headlinesAndLeadInsEndAtTheLineEnd() {
    #expect(readerSentences("Previous Research\nWe are aware of six studies. They agree.", "en")
            == ["Previous Research", "We are aware of six studies.", "They agree."])
    #expect(readerSentences("From the AP comes this story:\nPresident Bush on Tuesday nominated two judges.", "en")
            == ["From the AP comes this story:", "President Bush on Tuesday nominated two judges."])
    #expect(readerSentences("Einleitung\nDie Forschung beginnt hier.", "de") == ["Einleitung", "Die Forschung beginnt hier."])
    #expect(readerSentences("Introduction\u{2028}Research on adult learners is new.", "en")
            == ["Introduction", "Research on adult learners is new."])
    #expect(readerSentences("Here's a tip: Don't get married abroad.", "en") == ["Here's a tip: Don't get married abroad."])
    #expect(readerSentences("Remarque : Chypre est entré en zone euro.", "fr") == ["Remarque : Chypre est entré en zone euro."])
}
