// QuotationBoundaryTests.swift: quotation marks and brackets around a
// sentence end (issue 19, items 1 and 2), in several languages.
import LecternText
import Testing

// MARK: 1. A closing quote before the final punctuation

/// A quote attached to the end of a word closes a quotation, straight or
/// curly, whatever the script; the terminator after it ends the sentence
/// when a new sentence follows.
let quoteBeforeTerminator: [SentenceCase] = [
    .init("en", ["He said \"fine\".", "Then he left."]),
    .init("en", ["He said \"fine\"!", "Then he left."]),
    .init("en", ["He said \"fine\"?", "Then he left."]),
    .init("en", ["He said 'fine'.", "Then he left."]),
    .init("en", ["He said “fine”.", "Then he left."]),
    .init("de", ["Er sagte „gut“.", "Dann ging er."]),
    .init("de", ["Er sagte \"gut\".", "Dann ging er."]),
    .init("de", ["Er sagte »gut«.", "Dann ging er."]),
    .init("es", ["Dijo \"bien\".", "Luego se fue."]),
    .init("es", ["Dijo «bien».", "Luego se fue."]),
    .init("fr", ["Il a dit \"bien\".", "Puis il est parti."]),
    .init("fr", ["Il a dit « bien ».", "Puis il est parti."]),
    .init("ru", ["Он сказал \"хорошо\".", "Потом ушёл."]),
    .init("ru", ["Он сказал «хорошо».", "Потом ушёл."]),
    .init("ru", ["Он сказал „хорошо“!", "Потом ушёл."]),
]

@Test(arguments: quoteBeforeTerminator)
func closingQuoteBeforeTerminatorEndsSentence(_ sample: SentenceCase) {
    sample.check()
}

/// A quote that opens (after a space) before a terminator still marks a
/// quoted "?" or "." rather than a sentence end, and a lower-case word after
/// a quoted sentence continues it.
@Test func openingQuoteBeforeTerminatorDoesNotEnd() {
    #expect(readerSentences("He wrote \"?\" on the form and left.", "en") == ["He wrote \"?\" on the form and left."])
    #expect(readerSentences("\"Stop\". she said.", "en") == ["\"Stop\". she said."])
}

// MARK: 2. Bounded bracket and quotation spans

/// An opening bracket never closed (or closed only by an emoticon or a list
/// marker) must not swallow the sentence ends after it.
let unclosedBrackets: [SentenceCase] = [
    .init("en", ["He left (quietly.", "Then he came back.", "Bye :) see you.", "Ok."]),
    .init("en", ["Great news (: we won.", "Then we went home.", "See you ;) soon.", "Bye."]),
    .init("de", ["Er ging (leise.", "Dann kam er zurück.", "Tschüss :-) bis bald.", "Gut."]),
    .init("es", ["Se fue (en silencio.", "Luego volvió.", "Adiós :) hasta luego.", "Vale."]),
    .init("fr", ["Il est parti (sans bruit.", "Puis il est revenu.", "Salut =) à bientôt.", "Bon."]),
    .init("ru", ["Он ушёл (тихо.", "Потом вернулся.", "Пока :) до встречи.", "Ладно."]),
]

@Test(arguments: unclosedBrackets)
func emoticonDoesNotCloseABracket(_ sample: SentenceCase) {
    sample.check()
}

/// A list item's ")" ("iii)", "2)", "b)") is no closer of an earlier "(".
/// (A lower-case marker after a period continues the sentence, as any
/// lower-case word does.)
@Test(arguments: [
    ("en", ["Options (see below.", "The first is cheap. iii) The third is new.", "Then more."]),
    ("de", ["Optionen (siehe unten.", "Die erste ist billig.", "2) Die dritte ist neu.", "Dann mehr."]),
    ("es", ["Opciones (ver abajo.", "La primera es barata. b) La tercera es nueva.", "Luego más."]),
    ("fr", ["Options (voir plus bas.", "La première est bon marché.", "3) La troisième est neuve.", "Puis rien."]),
    ("ru", ["Варианты (см. ниже.", "Первый дешёвый.", "2) Третий новый.", "Потом ещё."]),
])
func listMarkerDoesNotCloseABracket(_ code: String, _ expected: [String]) {
    #expect(readerSentences(expected.joined(separator: " "), code) == expected)
}

/// A span that would hold several sentence ends is not a span: the ends
/// inside it stay boundaries (an opener far before its closer is a stray).
@Test(arguments: [
    ("en", "It rained (a lot.", "Then it snowed.", "Then it froze.", "Then it thawed.)"),
    ("de", "Es regnete (viel.", "Dann schneite es.", "Dann fror es.", "Dann taute es.)"),
    ("fr", "Il a plu (beaucoup.", "Puis il a neigé.", "Puis il a gelé.", "Puis tout a fondu.)"),
    ("es", "Llovió (mucho.", "Luego nevó.", "Luego heló.", "Luego se derritió.)"),
    ("ru", "Шёл дождь (сильный.", "Потом снег.", "Потом мороз.", "Потом оттепель.)"),
])
func spanWithSeveralSentenceEndsIsNotASpan(_ code: String, _ a: String, _ b: String, _ c: String, _ d: String) {
    #expect(readerSentences([a, b, c, d].joined(separator: " "), code) == [a, b, c, d])
}

/// A short parenthetical with one sentence end inside stays one sentence,
/// as before: brackets are still honoured when they are plausible.
@Test(arguments: [
    ("en", "He left (see the note. It explains why) and came back."),
    ("de", "Er ging (siehe die Notiz. Sie erklärt es) und kam zurück."),
])
func plausibleParentheticalStaysWhole(_ code: String, _ text: String) {
    #expect(readerSentences(text, code) == [text])
}

/// In CJK, where quotations embed sentences, a stray straight quote far
/// from any closer must not join every sentence after it.
@Test func strayQuoteInJapaneseIsBounded() {
    let sentence = "今日は雨が降りました。"
    let text = "彼は\"と言った。" + String(repeating: sentence, count: 60) + "終わり\"です。"
    let found = readerSentences(text, "ja")
    #expect(found.count > 50)
    #expect(found.allSatisfy { $0.utf16.count < 200 })
}

/// A CJK quotation with two sentences inside still stays one sentence.
@Test func japaneseQuotationStaysWhole() {
    #expect(readerSentences("彼は「こんにちは。元気？」と言った。次に行った。", "ja") == ["彼は「こんにちは。元気？」と言った。", "次に行った。"])
}

/// Typewriter quotes (``so'') and nested straight quotes close as a run.
@Test(arguments: [
    ("de", ["Er nannte es ``vorbildlich''.", "Dann ging er."]),
    ("en", ["He said \"it was 'fine'\".", "Then he left."]),
    ("fr", ["Il a dit ``bien''.", "Puis il est parti."]),
])
func runOfClosingQuotesEndsSentence(_ code: String, _ expected: [String]) {
    #expect(readerSentences(expected.joined(separator: " "), code) == expected)
}
