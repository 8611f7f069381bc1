// InformalWritingTests.swift: issue 19's rules for writing that does not
// punctuate or capitalise as edited text does (web forums, comments,
// e-mail): "?" and "!" before a lower-case word, faces and smiles that end
// sentences, and periods in lower-case writing. Several languages per rule,
// and the cases each rule must leave alone.
import LecternText
import Testing

/// The sentences reader mode finds in `text`, as trimmed content strings.
private func sentences(_ text: String, _ code: String) -> [String] {
    let document = DocumentText(text)
    let table = SentenceTable(document: document, mode: .reader, language: Language(code))
    return table.map { document.text(in: $0.content) }
}

struct InformalCase: CustomTestStringConvertible, Sendable {
    let language: String
    let sentences: [String]
    init(_ language: String, _ sentences: [String]) {
        self.language = language
        self.sentences = sentences
    }
    var testDescription: String { "\(language): \(sentences.joined(separator: " ‖ "))" }
}

private func check(_ sample: InformalCase) {
    #expect(sentences(sample.sentences.joined(separator: " "), sample.language) == sample.sentences)
}

// MARK: "?" and "!" before a lower-case word

let questionsBeforeLowercase: [InformalCase] = [
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
func aQuestionOrExclamationBeforeALowercaseWordEnds(_ sample: InformalCase) { check(sample) }

/// Where the lower-case word goes on with the sentence: after a closing
/// quote or bracket, after a dash (dialogue), after a "!" in a name, after
/// punctuation that is not a word's end.
let questionsThatGoOn: [InformalCase] = [
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
func aQuestionBeforeALowercaseWordGoesOnWhereTheTextSaysSo(_ sample: InformalCase) { check(sample) }

// MARK: Faces and smiles

let facesThatEndSentences: [InformalCase] = [
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
func aFaceAfterALowercaseWordEndsTheSentenceBeforeACapital(_ sample: InformalCase) { check(sample) }

let facesThatGoOn: [InformalCase] = [
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
func aFaceGoesOnWhereNothingSaysItEnds(_ sample: InformalCase) { check(sample) }

/// A check-mark bullet after a sentence starts the next one; it is no
/// trailing decoration of the sentence before.
@Test func aCheckMarkBulletStartsTheNextSentence() {
    #expect(sentences("Будет успешен весь день. ✔ К середине зимы станет теплее.", "ru")
            == ["Будет успешен весь день.", "✔ К середине зимы станет теплее."])
    #expect(sentences("✔ milk ✔ eggs ✔ bread", "en") == ["✔ milk", "✔ eggs", "✔ bread"])
}

// MARK: Periods in lower-case writing

/// Writing that starts its sentences in lower case (the paragraph starts
/// so, or a sentence did after "?" or "!"): a period before a lower-case
/// word ends the sentence unless it ends an abbreviation.
@Test func periodsInLowercaseWritingEndSentences() {
    #expect(sentences("i am going out tonight. max and jen are looking for you. call them.", "en")
            == ["i am going out tonight.", "max and jen are looking for you.", "call them."])
    #expect(sentences("are you coming? i am going out. max is too.", "en")
            == ["are you coming?", "i am going out.", "max is too."])
    #expect(sentences("мы приехали вчера. погода отличная.", "ru") == ["мы приехали вчера.", "погода отличная."])
    // Abbreviations and initials still go on.
    #expect(sentences("we bought apples, pears etc. and went home.", "en") == ["we bought apples, pears etc. and went home."])
    #expect(sentences("we need approx. five more.", "en") == ["we need approx. five more."])
    #expect(sentences("see e.g. the other one.", "en") == ["see e.g. the other one."])
}

/// Edited text keeps today's rule: a lower-case word after a period goes on.
@Test func periodsInEditedWritingStillGoOnBeforeLowercase() {
    #expect(sentences("It costs approx. five dollars. The rest is free.", "en")
            == ["It costs approx. five dollars.", "The rest is free."])
    #expect(sentences("Der Preis ist ca. zehn Euro. Das ist gut.", "de") == ["Der Preis ist ca. zehn Euro.", "Das ist gut."])
    #expect(sentences("He met the team. and then some.", "en") == ["He met the team. and then some."])
}

// MARK: Speech broken off with a dash; numbered citations after a space

/// An em dash attached to a word, then a space and a capitalised word:
/// speech broken off, and the next sentence starts. Closed or doubly spaced
/// dashes go on.
@Test func aDashThatBreaksOffSpeechEndsTheSentence() {
    #expect(sentences("Kendra, just let it go. You— No, because she doesn't— All you said was—", "en")
            == ["Kendra, just let it go.", "You—", "No, because she doesn't—", "All you said was—"])
    #expect(sentences("Ich wollte— Nein, lass das.", "de") == ["Ich wollte—", "Nein, lass das."])
    #expect(sentences("He was—I think—right about it.", "en") == ["He was—I think—right about it."])
    #expect(sentences("He was — I think — right about it.", "en") == ["He was — I think — right about it."])
    #expect(sentences("He was— and then he left.", "en") == ["He was— and then he left."])
}

/// A numbered citation after the terminator and a space stays with the
/// sentence it cites; other bracketed text after a space starts the next.
@Test func aNumberedCitationAfterASpaceStaysWithItsSentence() {
    #expect(sentences("He studied in Dulwich. [17] Placed under the care of a tutor, he grew.", "en")
            == ["He studied in Dulwich. [17]", "Placed under the care of a tutor, he grew."])
    #expect(sentences("Er studierte in Wien. [3, 4] Danach ging er.", "de")
            == ["Er studierte in Wien. [3, 4]", "Danach ging er."])
    #expect(sentences("He left. [Laughter] Then he came back.", "en")
            == ["He left.", "[Laughter] Then he came back."])
}
