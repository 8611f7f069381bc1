// InformalWritingTests.swift: issue 19's rules for writing that does not
// punctuate or capitalise as edited text does (web forums, comments,
// e-mail): "?" and "!" before a lower-case word, faces and smiles that end
// sentences, and periods in lower-case writing. Several languages per rule,
// and the cases each rule must leave alone.
import LecternText
import Testing

// MARK: "?" and "!" before a lower-case word

let questionsBeforeLowercase: [SentenceCase] = [
    .init("en", ["where did you grow up?", "in india?", "should i be embarrassed?"]),
    .init("en", ["What?", "where?", "when?"]),
    .init("en", ["are you kidding?", "why would you want that?"]),
    .init("en", ["we had such fun!", "see you next week."]),
    .init("de", ["Kommst du morgen?", "ich weiß es noch nicht."]),
    .init("fr", ["Tu viens demain?", "je ne sais pas encore."]),
    .init("ru", ["Ты придёшь завтра?", "я ещё не знаю."]),
    .init("es", ["Vienes mañana?", "no lo sé todavía."]),
]

@Test(arguments: questionsBeforeLowercase)
func aQuestionOrExclamationBeforeALowercaseWordEnds(_ sample: SentenceCase) { sample.check() }

/// Where the lower-case word goes on with the sentence: after a closing
/// quote or bracket, after a dash (dialogue), after a "!" in a name, after
/// punctuation that is not a word's end.
let questionsThatGoOn: [SentenceCase] = [
    .init("en", ["\"Who is it?\" she asked."]),
    .init("en", ["He wondered (why?) and left."]),
    .init("en", ["She works at Yahoo! in the accounting department."]),
    .init("en", ["He was a Jeopardy! champion twice."]),
    .init("ru", ["Ты куда? — спросила она."]),
    .init("fr", ["« Tu viens ? » demanda-t-il."]),
    .init("de", ["„Kommst du?“, fragte er."]),
    .init("de", ["Er sagte ''Wehrpflicht'',? fragte der Vorsitzende."]),
    .init("es", ["Me preguntó ¿vienes mañana? y le dije que sí."]),
    .init("es", ["¡Qué bien! dijo ella."]),
]

@Test(arguments: questionsThatGoOn)
func aQuestionBeforeALowercaseWordGoesOnWhereTheTextSaysSo(_ sample: SentenceCase) { sample.check() }

// MARK: Faces and smiles

let facesThatEndSentences: [SentenceCase] = [
    .init("ru", ["Красиво 😍", "Завтра снова поедем."]),
    .init("ru", ["Какие же вы хорошие😍😍😍", "Стильно получилось!"]),
    .init("ru", ["Nice🤗", "А мы тут недавно."]),
    .init("ru", ["добрый вечер!⭐️", "Эта терраса президентская."]),
    .init("en", ["Had a great time :)", "See you tomorrow."]),
    .init("en", ["We lost again :-(", "Next week then."]),
    .init("de", ["Das war super =)", "Bis morgen."]),
    .init("ru", ["Супер:D", "Отличный снимок."]),
    .init("ru", ["спасибо)))", "Спасибо большое."]),
    .init("ru", ["Красиво))", "Как в сказке."]),
]

@Test(arguments: facesThatEndSentences)
func aFaceAfterALowercaseWordEndsTheSentenceBeforeACapital(_ sample: SentenceCase) { sample.check() }

let facesThatGoOn: [SentenceCase] = [
    .init("en", ["I ❤️ NY and so do you."]),
    .init("en", ["We went 😍 and we stayed."]),
    .init("en", ["Meet me at 10:30 Tomorrow."]),
    .init("en", ["Set a=b Then go."]),
    .init("en", ["The list: a) Apples b) Pears."]),
    .init("en", ["He left (smiling :) Then) and we stayed."]),
    .init("en", ["I love her. :)", "I have a cat."]),
    .init("ru", ["Это всё. 👍👍", "Дальше сами."]),
]

@Test(arguments: facesThatGoOn)
func aFaceGoesOnWhereNothingSaysItEnds(_ sample: SentenceCase) { sample.check() }

/// A check-mark bullet after a sentence starts the next one; it is no
/// trailing decoration of the sentence before.
@Test func aCheckMarkBulletStartsTheNextSentence() {
    #expect(readerSentences("Будет успешен весь день. ✔ К середине зимы станет теплее.", "ru")
            == ["Будет успешен весь день.", "✔ К середине зимы станет теплее."])
    #expect(readerSentences("✔ milk ✔ eggs ✔ bread", "en") == ["✔ milk", "✔ eggs", "✔ bread"])
}

// MARK: Periods in lower-case writing

/// Writing that starts its sentences in lower case (the paragraph starts
/// so, or a sentence did after "?" or "!"): a period before a lower-case
/// word ends the sentence unless it ends an abbreviation.
@Test func periodsInLowercaseWritingEndSentences() {
    #expect(readerSentences("i am going out tonight. max and jen are looking for you. call them.", "en")
            == ["i am going out tonight.", "max and jen are looking for you.", "call them."])
    #expect(readerSentences("are you coming? i am going out. max is too.", "en")
            == ["are you coming?", "i am going out.", "max is too."])
    #expect(readerSentences("мы приехали вчера. погода отличная.", "ru") == ["мы приехали вчера.", "погода отличная."])
    // Abbreviations and initials still go on.
    #expect(readerSentences("we bought apples, pears etc. and went home.", "en") == ["we bought apples, pears etc. and went home."])
    #expect(readerSentences("we need approx. five more.", "en") == ["we need approx. five more."])
    #expect(readerSentences("see e.g. the other one.", "en") == ["see e.g. the other one."])
}

/// Edited text keeps today's rule: a lower-case word after a period goes on.
@Test func periodsInEditedWritingStillGoOnBeforeLowercase() {
    #expect(readerSentences("It costs approx. five dollars. The rest is free.", "en")
            == ["It costs approx. five dollars.", "The rest is free."])
    #expect(readerSentences("Der Preis ist ca. zehn Euro. Das ist gut.", "de") == ["Der Preis ist ca. zehn Euro.", "Das ist gut."])
    #expect(readerSentences("He met the team. and then some.", "en") == ["He met the team. and then some."])
}

// MARK: Speech broken off with a dash; numbered citations after a space

/// An em dash attached to a word, then a space and a capitalised word:
/// speech broken off, and the next sentence starts. Closed or doubly spaced
/// dashes go on.
@Test func aDashThatBreaksOffSpeechEndsTheSentence() {
    #expect(readerSentences("Kendra, just let it go. You— No, because she doesn't— All you said was—", "en")
            == ["Kendra, just let it go.", "You—", "No, because she doesn't—", "All you said was—"])
    #expect(readerSentences("Ich wollte— Nein, lass das.", "de") == ["Ich wollte—", "Nein, lass das."])
    #expect(readerSentences("He was—I think—right about it.", "en") == ["He was—I think—right about it."])
    #expect(readerSentences("He was — I think — right about it.", "en") == ["He was — I think — right about it."])
    #expect(readerSentences("He was— and then he left.", "en") == ["He was— and then he left."])
}

/// A numbered citation after the terminator and a space stays with the
/// sentence it cites; other bracketed text after a space starts the next.
@Test func aNumberedCitationAfterASpaceStaysWithItsSentence() {
    #expect(readerSentences("He studied in Dulwich. [17] Placed under the care of a tutor, he grew.", "en")
            == ["He studied in Dulwich. [17]", "Placed under the care of a tutor, he grew."])
    #expect(readerSentences("Er studierte in Wien. [3, 4] Danach ging er.", "de")
            == ["Er studierte in Wien. [3, 4]", "Danach ging er."])
    #expect(readerSentences("He left. [Laughter] Then he came back.", "en")
            == ["He left.", "[Laughter] Then he came back."])
}
