// ParagraphLanguageTests.swift: each paragraph gets its own language and
// the rules of that language; the hint decides what the script cannot.
import LecternText
import Testing

/// The sentences of paragraph `index`, as text.
private func sentences(of table: SentenceTable, in document: DocumentText, paragraph index: Int) -> [String] {
    table.filter { $0.paragraph == index }.map { document.text(in: $0.content) }
}

private let japanese = "東京は日本の首都です。人口は約千四百万人です。"
private let english = "Dr. Smith met Mr. Jones on Baker St. today. He left."
private let korean = "오늘은 날씨가 정말 좋습니다. 우리는 공원에 갔습니다."

@Test func japaneseEnglishAndKoreanParagraphsEachGetTheirOwnLanguage() {
    let document = DocumentText([japanese, english, korean].joined(separator: "\n"))
    let table = SentenceTable(document: document)
    #expect((0..<3).map { table.language(ofParagraph: $0) } == [Language("ja"), .english, Language("ko")])
    #expect(table.languages == [Language("ja"), .english, Language("ko")])
    // The English paragraph is split by English rules: Dr., Mr. and St. are abbreviations.
    #expect(sentences(of: table, in: document, paragraph: 1)
            == ["Dr. Smith met Mr. Jones on Baker St. today.", "He left."])
    #expect(sentences(of: table, in: document, paragraph: 0) == ["東京は日本の首都です。", "人口は約千四百万人です。"])
    #expect(sentences(of: table, in: document, paragraph: 2) == ["오늘은 날씨가 정말 좋습니다.", "우리는 공원에 갔습니다."])
    // The same with a hint for the whole: the scripts still decide, and
    // the English paragraph (the hint is not Latin-script) is English.
    let hinted = SentenceTable(document: document, language: Language("ja"))
    #expect(hinted.language == Language("ja"))
    #expect((0..<3).map { hinted.language(ofParagraph: $0) } == [Language("ja"), .english, Language("ko")])
    #expect(sentences(of: hinted, in: document, paragraph: 1).count == 2)
}

@Test func theDocumentLanguageIsTheLanguageOfTheMostText() {
    // A mostly-Korean document quoting an English sentence.
    let document = DocumentText([korean, "He said: it is fine.", korean, korean].joined(separator: "\n"))
    let table = SentenceTable(document: document)
    #expect(table.language == Language("ko"))
    #expect(table.languages == [Language("ko"), .english])
    #expect(Language.detect(in: document) == Language("ko"))
    // With a hint, the hint's tag is the document's language.
    #expect(SentenceTable(document: document, language: Language("en-GB")).language == Language("en-GB"))
}

@Test func aGermanParagraphInAnEnglishDocumentIsGermanWithoutAHint() {
    let german = "Wir treffen uns am 5. Juli in Berlin. Dann fahren wir zusammen nach Hamburg."
    let document = DocumentText([
        "The meeting was moved again, and nobody was told about it until the day before.",
        german,
        "We will see what happens when they get back from the trip.",
    ].joined(separator: "\n"))
    let table = SentenceTable(document: document)
    #expect(table.language(ofParagraph: 1) == Language("de"))
    #expect(table.language(ofParagraph: 0) == .english)
    #expect(table.language == .english)
    // German rules: "am 5. Juli" is a date, not a sentence end.
    #expect(sentences(of: table, in: document, paragraph: 1)
            == ["Wir treffen uns am 5. Juli in Berlin.", "Dann fahren wir zusammen nach Hamburg."])
}

@Test func aLatinScriptHintAppliesToEveryLatinParagraph() {
    let document = DocumentText("Wir treffen uns am 5. Juli in Berlin. Dann fahren wir zusammen nach Hamburg.\n오늘은 좋다.")
    let table = SentenceTable(document: document, language: .english)
    #expect(table.language(ofParagraph: 0) == .english)
    #expect(table.language(ofParagraph: 1) == Language("ko"))
    // English rules split at "5." before a capital; that is what the client asked for.
    #expect(sentences(of: table, in: document, paragraph: 0).count == 3)
    let brazilian = SentenceTable(document: DocumentText("Oi.\nHello there, how are you today? I am fine."), language: Language("pt-BR"))
    #expect(brazilian.languages == [Language("pt-BR")])
    #expect(brazilian.language(ofParagraph: 1).tag == "pt-BR")
}

@Test func shortLatinParagraphsFollowTheDocument() {
    // Headings too short for their own profile take the document's Latin language.
    let document = DocumentText([
        "Berlin",
        "Als wir am Morgen aus dem Haus gingen, war es sehr kalt, und auf der Straße lag Schnee.",
        "Die Züge",
        "Man hatte uns gesagt, dass die Züge nicht fahren würden, aber sie fuhren doch.",
    ].joined(separator: "\n"))
    let table = SentenceTable(document: document)
    #expect(table.languages == [Language("de")])
    // Without evidence anywhere: en.
    #expect(SentenceTable(document: DocumentText("Bonjour Paris.\nAngela Merkel")).languages == [.english])
}

@Test func aKoreanParagraphQuotingJapaneseIsKorean() {
    // Kana in a Korean paragraph (a Japanese name) does not make it Japanese.
    let korean = DocumentText("《메이플스토리》(일본어: メイプルストーリー)는 넥슨이 서비스하는 온라인 게임이다. 많은 사용자가 있다.")
    #expect(SentenceTable(document: korean).languages == [Language("ko")])
    // A Japanese paragraph quoting Korean is Japanese: more kana than Hangul.
    let japanese = DocumentText("「안녕하세요」は韓国語で「こんにちは」という意味です。")
    #expect(SentenceTable(document: japanese).languages == [Language("ja")])
}

@Test func hanOnlyParagraphsFollowTheDocumentsCJKLanguage() {
    // A Japanese document's kanji-only heading and list items are ja.
    let document = DocumentText(["東京都", japanese, "大阪府", "京都は古い都です。"].joined(separator: "\n"))
    let table = SentenceTable(document: document)
    #expect((0..<4).map { table.language(ofParagraph: $0) } == Array(repeating: Language("ja"), count: 4))
    // Without kana or Hangul anywhere: zh.
    let chinese = SentenceTable(document: DocumentText("北京\n今天天气很好。我们去公园。"))
    #expect(chinese.languages == [Language("zh")])
    // A Han-writing hint wins for Han-only paragraphs, not for kana ones.
    let hinted = SentenceTable(document: DocumentText("今天天氣很好。\n今日は晴れです。"), language: Language("zh-Hant"))
    #expect(hinted.language(ofParagraph: 0).tag == "zh-Hant")
    #expect(hinted.language(ofParagraph: 1) == Language("ja"))
    // A Korean document's hanja paragraph with a ko hint is ko.
    let hanja = SentenceTable(document: DocumentText("大韓民國\n오늘은 좋다."), language: Language("ko"))
    #expect(hanja.languages == [Language("ko")])
}

@Test func aHintOfTheSameScriptWinsOverTheScriptsDefault() {
    let ukrainian = DocumentText("Сьогодні гарна погода. Ми йдемо в парк.\nHello there, how are you?")
    let table = SentenceTable(document: ukrainian, language: Language("uk"))
    #expect(table.language(ofParagraph: 0) == Language("uk"))
    #expect(table.language(ofParagraph: 1) == .english)
    // Without the hint, Cyrillic is ru; with a hint of another script, too.
    #expect(SentenceTable(document: ukrainian).language(ofParagraph: 0) == Language("ru"))
    #expect(SentenceTable(document: ukrainian, language: Language("ko")).language(ofParagraph: 0) == Language("ru"))
    // sr is written in Cyrillic, sr-Latn in Latin.
    let serbian = DocumentText("Данас је лепо време.\nDanas je lepo vreme, i mi idemo u park.")
    let cyrillic = SentenceTable(document: serbian, language: Language("sr"))
    #expect(cyrillic.language(ofParagraph: 0) == Language("sr"))
    #expect(cyrillic.language(ofParagraph: 1) != Language("sr"))
    let latin = SentenceTable(document: serbian, language: Language("sr-Latn"))
    #expect(latin.language(ofParagraph: 0) == Language("ru"))
    #expect(latin.language(ofParagraph: 1).tag == "sr-Latn")
    // Persian is written in Arabic script.
    #expect(SentenceTable(document: DocumentText("امروز هوا خوب است."), language: Language("fa")).languages == [Language("fa")])
    #expect(SentenceTable(document: DocumentText("امروز هوا خوب است.")).languages == [Language("ar")])
}

@Test func paragraphsWithoutLettersTakeTheDocumentsLanguage() {
    let document = DocumentText([korean, "1234 5678", "", "🙂🙂", korean].joined(separator: "\n"))
    let table = SentenceTable(document: document)
    #expect((0..<5).map { table.language(ofParagraph: $0) } == Array(repeating: Language("ko"), count: 5))
    #expect(SentenceTable(document: document, language: Language("ja")).language(ofParagraph: 1) == Language("ja"))
    // Nothing but numbers: und, the generic rules.
    let numbers = SentenceTable(document: DocumentText("1234 !!\n56"))
    #expect(numbers.language == .undetermined)
    #expect(numbers.languages == [.undetermined])
    // An empty text has no paragraphs and reports its document language.
    let empty = SentenceTable(document: DocumentText(""))
    #expect(empty.languages == [.undetermined])
    #expect(SentenceTable(document: DocumentText(""), language: Language("ko")).languages == [Language("ko")])
}

@Test func anotherScriptTakesTheHintOnlyWhenWrittenInIt() {
    let georgian = DocumentText("დღეს კარგი ამინდია.")
    #expect(SentenceTable(document: georgian).languages == [.undetermined])
    #expect(SentenceTable(document: georgian, language: Language("ka")).languages == [Language("ka")])
    #expect(SentenceTable(document: georgian, language: .english).languages == [.undetermined])
}

@Test func uax29ModeReportsTheLanguagesAndKeepsItsBoundaries() {
    let document = DocumentText([japanese, english, korean].joined(separator: "\n"))
    let table = SentenceTable(document: document, mode: .uax29)
    #expect(table.languages == [Language("ja"), .english, Language("ko")])
    // UAX #29 splits after "Dr." and the others: the rules do not depend on the language.
    #expect(sentences(of: table, in: document, paragraph: 1).count > 2)
}

@Test func manyShortParagraphsAreReadOnceAndLongOnesOnlyInPart() {
    // About 1 MB of ten-word lines: detection reads each line at most once.
    let line = "the cat and the dog were in the house today\n"
    let many = DocumentText(String(repeating: line, count: 1_000_000 / line.utf8.count))
    let languages = ParagraphLanguages(document: many, hint: nil)
    #expect(languages.count == many.paragraphs.count)
    // Each line's letters counted, then (Latin script, no hint) its words scored: twice at most.
    #expect(languages.unitsRead <= 2 * many.utf16.count)
    #expect(ParagraphLanguages(document: many, hint: .english).unitsRead <= many.utf16.count)
    #expect(languages.distinct == [.english])
    // One paragraph of 1 MB: a bounded sample of it.
    let long = DocumentText(String(repeating: "the cat and the dog were in the house today ", count: 23_000))
    let one = ParagraphLanguages(document: long, hint: nil)
    #expect(one.unitsRead <= 2 * ParagraphLanguages.unitSample)
    #expect(one.document == .english)
    // Digits before any letter: still bounded.
    let digits = DocumentText(String(repeating: "1234 ", count: 100_000) + "Hallo")
    #expect(ParagraphLanguages(document: digits, hint: nil).unitsRead <= 2 * ParagraphLanguages.unitSample)
}

/// A paragraph whose first 32 letters are all of one script (not Han) is
/// read by them; Han-only starts read on, so later kana still make it ja.
@Test func aParagraphIsReadByItsFirstLettersWhenTheyAreOfOneScript() {
    let english = "The Three-Body Problem is a novel by Liu Cixin " + String(repeating: "三体是刘慈欣创作的长篇科幻小说", count: 4)
    #expect(ParagraphLanguages(document: DocumentText(english), hint: nil).language(ofParagraph: 0).code == "en")
    let japanese = String(repeating: "東京都知事選挙結果発表", count: 4) + "が行われました。"
    #expect(ParagraphLanguages(document: DocumentText(japanese), hint: nil).language(ofParagraph: 0).code == "ja")
    let korean = String(repeating: "한국어 문장입니다 ", count: 6) + "English words follow here in the same paragraph"
    #expect(ParagraphLanguages(document: DocumentText(korean), hint: nil).language(ofParagraph: 0).code == "ko")
}
