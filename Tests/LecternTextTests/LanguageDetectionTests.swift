// LanguageDetectionTests.swift: Latin-script languages told apart by their
// commonest words when no language is given.
import LecternText
import Testing

/// A paragraph of ordinary prose in each language, none from the dev data.
private let paragraphs: [(code: String, text: String)] = [
    ("en", "The weather was cold when we left the house, and there was snow on the road. We had been told that the trains would not run, but they did, and we were in town by ten."),
    ("de", "Als wir am Morgen aus dem Haus gingen, war es sehr kalt, und auf der Straße lag Schnee. Man hatte uns gesagt, dass die Züge nicht fahren würden, aber sie fuhren doch."),
    ("fr", "Quand nous sommes sortis de la maison, il faisait très froid et la route était couverte de neige. On nous avait dit que les trains ne rouleraient pas, mais ils sont partis à l'heure."),
    ("es", "Cuando salimos de la casa hacía mucho frío y había nieve en el camino. Nos dijeron que los trenes no saldrían, pero salieron a su hora y llegamos a la ciudad por la mañana."),
    ("pt", "Quando saímos de casa estava muito frio e havia neve na estrada. Disseram-nos que os comboios não iam circular, mas eles partiram à hora certa e chegámos à cidade de manhã."),
    ("it", "Quando siamo usciti di casa faceva molto freddo e sulla strada c'era la neve. Ci avevano detto che i treni non sarebbero partiti, ma sono partiti in orario e siamo arrivati in città."),
    ("nl", "Toen we het huis uit gingen was het erg koud en er lag sneeuw op de weg. Men had ons gezegd dat de treinen niet zouden rijden, maar ze reden toch en we waren om tien uur in de stad."),
]

@Test(arguments: paragraphs.map(\.code))
func aParagraphOfEachLatinScriptLanguageIsDetected(code: String) throws {
    let text = try #require(paragraphs.first { $0.code == code }).text
    #expect(Language.detect(in: DocumentText(text)) == Language(code))
    #expect(SentenceTable(document: DocumentText(text)).language == Language(code))
}

@Test func thinOrMixedEvidenceStaysEnglish() {
    // Too few function words to decide: the Latin-script answer stays en.
    #expect(Language.detect(in: DocumentText("Hallo!")) == .english)
    #expect(Language.detect(in: DocumentText("Bonjour Paris.")) == .english)
    #expect(Language.detect(in: DocumentText("Angela Merkel, Berlin 2005.")) == .english)
    // English with a French phrase and a German noun in it.
    #expect(Language.detect(in: DocumentText("The café served its croissants à la carte, and the Kindergarten was closed for the day.")) == .english)
    // Half German, half English, evenly: no clear lead, so en.
    #expect(Language.detect(in: DocumentText("Er ist in der Stadt. He is in the town.")) == .english)
}

@Test func aGivenLanguageWinsOverDetection() {
    let german = DocumentText(paragraphs[1].text)
    #expect(SentenceTable(document: german, language: .english).language == .english)
    #expect(SentenceTable(document: german, language: Language("nl")).language == Language("nl"))
}

@Test func germanOrdinalDateIsNotSplitWithoutAHint() {
    let document = DocumentText("Er kam am 5. Juli an. Dann ging er.")
    let table = SentenceTable(document: document)
    #expect(table.language == Language("de"))
    #expect(table.map { document.text(in: $0.content) } == ["Er kam am 5. Juli an.", "Dann ging er."])
}

@Test func detectionReadsABoundedSample() {
    // Thousands of English words, then German: only the first words count.
    let english = String(repeating: "the cat and the dog were in the house. ", count: 400)
    let german = String(repeating: "der Hund und die Katze sind nicht im Haus. ", count: 400)
    #expect(Language.detect(in: DocumentText(english + german)) == .english)
}
