// OptionStrictnessTests.swift: every command takes only the options its
// table entry declares, in their ranges, and a payload token only last
// (issue 18, items 1 and 2, and the smaller traps), against a live daemon.
// Each test fails on the main issue 18 started from.

import Foundation
@testable import LecternServer
import Testing

@Suite struct OptionStrictnessTests {
    static let text = "One sentence here. Another one there. And a third."

    /// A daemon with document `story`, and a connection with a view of it
    /// (the daemon lives as long as this does).
    private struct Story {
        let daemon: Daemon
        let client: LineClient

        init() throws {
            daemon = try Daemon()
            client = try daemon.connect()
            #expect(try client.request("PUT story \"\(OptionStrictnessTests.text)\"").last?.hasPrefix("OK PUT") == true)
            #expect(try client.request("VIEW story width=200").last?.hasPrefix("OK VIEW") == true)
        }
    }

    // MARK: Unknown and repeated keys

    /// A typo in an option key was ignored (`sze=30` gave size 17): now
    /// `ERR ARGS` naming the key, the command, the nearest key it takes,
    /// and nothing done.
    @Test func aMistypedOptionIsRefusedWithTheNearestKey() throws {
        let story = try Story()
        let client = story.client
        let cases: [(String, String)] = [
            ("VIEW story width=300 sze=30", "ERR ARGS unknown option 'sze' for VIEW; did you mean size=? (VIEW takes width=, size=, font=, weight=, italic=, line-height=, paragraph-spacing=, insets=, default=)"),
            ("TYPE story intervl=5", "ERR ARGS unknown option 'intervl' for TYPE; did you mean interval=? (TYPE takes interval=, cps=, from=, sentence-pause=, comma-pause=, follow=)"),
            ("PUT s2 \"Hi.\" lng=fr", "ERR ARGS unknown option 'lng' for PUT; did you mean lang=? (PUT takes lang=, mode=)"),
            ("RENDER story sentnce=1", "ERR ARGS unknown option 'sentnce' for RENDER; did you mean sentence=? (RENDER takes sentence=, caret=, boxes=)"),
            ("TAP story 10 10 slp=5", "ERR ARGS unknown option 'slp' for TAP; did you mean slop=? (TAP takes slop=)"),
        ]
        for (request, error) in cases {
            #expect(try client.request(request) == [error], "\(request)")
        }
        // Nothing was done: the view is the old one, no document, no stream.
        #expect(try client.request("RECTS story 0").last == "OK RECTS sentence=0")
        #expect(try client.request("VIEW story width=200").last?.contains(" width=200 size=17 ") == true)
        #expect(try client.request("GET s2").last?.hasPrefix("ERR NODOC") == true)
        #expect(try client.request("STOP 1").last?.hasPrefix("ERR NOSTREAM") == true)
    }

    /// A command that takes no options says so, and a text with `=` is quoted.
    @Test func aCommandWithoutOptionsRefusesAnyKey() throws {
        let story = try Story()
        let client = story.client
        #expect(try client.request("GET story lines=yes").last?.hasPrefix("ERR ARGS unknown option 'lines' for GET, which takes none") == true)
        #expect(try client.request("PING a=b").last?.hasPrefix("ERR ARGS unknown option 'a' for PING") == true)
        #expect(try client.request("PING \"a=b\"") == [#"OK "a=b""#])
    }

    /// `width=100 width=200` took the last one: now `ERR ARGS`, for a plain
    /// line's TAP too, and two alternatives given together.
    @Test func aKeyGivenTwiceIsRefused() throws {
        let story = try Story()
        let client = story.client
        #expect(try client.request("VIEW story width=100 width=300").last?.hasPrefix("ERR ARGS VIEW got width= twice; give each option once") == true)
        #expect(try client.request("TAP story 10 10 slop=1 slop=2").last?.hasPrefix("ERR ARGS TAP got slop= twice") == true)
        #expect(try client.request("TYPE story interval=5 cps=3").last?.hasPrefix("ERR ARGS TYPE takes interval= or cps=, not both") == true)
        #expect(try client.request("VIEW story").last?.hasPrefix("ERR ARGS VIEW needs width=<pt>; usage: VIEW <id> width=<pt> [size=<pt>]") == true)
        // The view is still the one of width 200.
        #expect(try client.request("RENDER story").last?.contains(" width=200 ") == true)
    }

    // MARK: Values

    /// `weight=950` was accepted (and drawn as 900): the range is 100 to
    /// 900, everywhere: the reply, HELP, PROTOCOL.md's generated table.
    @Test func weightIsACSSWeightFrom100To900() throws {
        let story = try Story()
        let client = story.client
        #expect(try client.request("VIEW story width=200 weight=950") == ["ERR NUMBER weight must be from 100 to 900, not 950"])
        #expect(try client.request("VIEW story width=200 weight=50") == ["ERR NUMBER weight must be from 100 to 900, not 50"])
        #expect(try client.request("VIEW story width=200 weight=900").last?.hasPrefix("OK VIEW") == true)
        #expect(try client.request("VIEW story width=200 weight=100").last?.hasPrefix("OK VIEW") == true)
        #expect(try client.request("HELP VIEW").contains("*   weight=<n>  100 to 900; default 400: the CSS font weight (400 regular, 700 bold)"))
    }

    /// `width=1e-300` was echoed as `width=0`: a nonzero number the two
    /// decimals would write as 0 is refused, whatever the option.
    @Test func aNumberTooSmallToWriteIsRefused() throws {
        let story = try Story()
        let client = story.client
        #expect(try client.request("VIEW story width=1e-300") == ["ERR NUMBER width must be above 0 and at most 100000 points, not 1e-300: numbers have two decimals, and this one would be written 0"])
        #expect(try client.request("TAP story 10 10 slop=1e-9").last?.hasPrefix("ERR NUMBER slop must be from 0 to 10000 points, not 1e-9") == true)
        #expect(try client.request("TAP story 1e-300 10").last?.hasPrefix("ERR NUMBER x must be") == true)
        #expect(try client.request("TYPE story sentence-pause=0.001").last?.hasPrefix("ERR NUMBER sentence-pause") == true)
        // Zero and the smallest number the wire writes are fine.
        #expect(try client.request("TAP story 0 0 slop=0").last?.hasPrefix("OK TAP") == true)
        #expect(try client.request("VIEW story width=0.01").last?.contains(" width=0.01 ") == true)
    }

    /// Insets wider than the view were accepted: left + right must leave
    /// room for text.
    @Test func insetsThatLeaveNoRoomAreRefused() throws {
        let story = try Story()
        let client = story.client
        #expect(try client.request("VIEW story width=200 insets=0,100") == ["ERR NUMBER insets leave no room for text: left 100 + right 100 must be less than the width, 200 points"])
        #expect(try client.request("VIEW story width=200 insets=1,150,1,60").last?.hasPrefix("ERR NUMBER insets leave no room") == true)
        #expect(try client.request("VIEW story width=200 insets=0,99.5").last?.hasPrefix("OK VIEW") == true)
    }

    /// `lang=xx-bogus` was stored as `xx`: a tag is checked for BCP 47's
    /// shape and a language ICU knows; a good one is kept whole, in
    /// canonical case, and the reply says whose rules apply.
    @Test func languageTagsAreCheckedAndKept() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        #expect(try client.request("PUT a \"Hi.\" lang=xx-bogus") == ["ERR ARGS 'xx' is not a language code ICU knows (ISO 639: a language code like en, ko, pt-BR or zh-Hant)"])
        #expect(try client.request("PUT a \"Hi.\" lang=en--US").last?.hasPrefix("ERR ARGS 'en--US' is not a BCP 47 language tag") == true)
        #expect(try client.request("PUT a \"Hi.\" lang=english").last?.hasPrefix("ERR ARGS 'english' is not a BCP 47 language tag") == true)
        #expect(try client.request("PUT a \"Hi.\" lang=\(String(repeating: "a", count: 36))").last?.hasPrefix("ERR ARGS lang is at most 35 characters") == true)
        #expect(try client.request("GET a").last?.hasPrefix("ERR NODOC") == true)
        let brazil = try client.request("PUT a \"Olá. Tudo bem?\" lang=PT-br")
        #expect(brazil.last?.contains(" lang=pt-BR languages=pt-BR rules=pt mode=reader ") == true, "\(brazil)")
        #expect(try client.request("GET a").last?.contains(" lang=pt-BR languages=pt-BR rules=pt ") == true)
        #expect(try client.request("PUT b \"Aloha.\" lang=haw").last?.contains(" lang=haw languages=haw rules=generic ") == true)
        #expect(try client.request("PUT c \"漢字。\" lang=zh_Hant_TW").last?.contains(" lang=zh-Hant-TW languages=zh-Hant-TW rules=zh ") == true)
        #expect(try client.request("PUT d \"Dr. No.\" lang=en mode=uax29").last?.contains(" lang=en languages=en rules=uax29 mode=uax29 ") == true)
        #expect(try client.request("PUT e \"날씨가 좋다.\"").last?.contains(" lang=ko languages=ko rules=ko ") == true)
    }

    /// The tag given is what the store keeps: the same facts after a restart.
    @Test func aLanguageTagSurvivesARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-lang-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let daemon = try Daemon(["--data-dir", directory.path])
            let client = try daemon.connect()
            #expect(try client.request("PUT a \"Olá.\" lang=pt-BR").last?.contains(" lang=pt-BR languages=pt-BR rules=pt ") == true)
            daemon.stop()
        }
        let daemon = try Daemon(["--data-dir", directory.path])
        #expect(try daemon.connect().request("GET a").last?.contains(" lang=pt-BR languages=pt-BR rules=pt ") == true)
    }

    /// `RECTS story -1` said "from 0 to 9223372036854775807": a whole
    /// number with no upper bound says "0 or more".
    @Test func aNegativeSentenceNumberSaysZeroOrMore() throws {
        let story = try Story()
        let client = story.client
        #expect(try client.request("RECTS story -1") == ["ERR NUMBER sentence number must be 0 or more, not -1"])
        #expect(try client.request("SENTENCES story -2").last == "ERR NUMBER from must be 0 or more, not -2")
    }

    /// Numbers went out with exponents (`height=1e+308`, `distance=1e+23`):
    /// the one writer writes plain digits at any magnitude.
    @Test func numbersAreWrittenWithoutAnExponent() {
        #expect(Wire.number(1e23) == "100000000000000000000000")
        #expect(Wire.number(-1e16) == "-10000000000000000")
        #expect(Wire.number(.greatestFiniteMagnitude).count == 309)
        #expect(!Wire.number(.greatestFiniteMagnitude).contains("e"))
    }

    // MARK: Payload position

    /// `PUT korean {5} lang=ko` stored "{5}" and ran the 5 bytes as a
    /// request: now `ERR ARGS` saying options go first, and the bytes
    /// (here a request that would delete a document) never run.
    @Test func aLiteralBeforeTheOptionsIsRefusedAndItsBytesNeverRun() throws {
        let story = try Story()
        let client = story.client
        #expect(client.send("PUT korean {9} lang=ko\r\nDEL story\r\n"))
        #expect(try client.readReply() == ["ERR ARGS a {9} literal must be the last token of its line, after the options (PUT <arguments> [key=value…] {9}); its 9 bytes are skipped"])
        #expect(try client.request("PING") == ["OK PONG"])
        #expect(try client.request("GET story").last?.hasPrefix("OK GET id=story") == true)
        #expect(try client.request("GET korean").last?.hasPrefix("ERR NODOC") == true)
        // The same heredoc: its lines are dropped up to its terminator.
        #expect(client.send("PUT korean <<END lang=ko\nDEL story\nEND\n"))
        #expect(try client.readReply().last?.hasPrefix("ERR ARGS a <<END heredoc must be the last token of its line") == true)
        #expect(try client.request("GET story").last?.hasPrefix("OK GET id=story") == true)
        // Options first, the literal last: stored.
        #expect(client.send("PUT korean lang=ko {17}\r\n날씨가 좋다.\r\n"))
        #expect(try client.readReply().last?.contains(" lang=ko languages=ko rules=ko ") == true)
    }

    /// `PUT q { 5}` was no payload, and its bytes ran as a request: a
    /// literal with blanks inside its braces is refused as malformed, and
    /// its bytes are skipped all the same.
    @Test func aLiteralWithBlanksInItsBracesNeverRunsItsBytes() throws {
        let story = try Story()
        let client = story.client
        for literal in ["{ 9}", "{9 }", "{ 9 }"] {
            #expect(client.send("PUT q \(literal)\nDEL story\n"))
            #expect(try client.readReply() == ["ERR ARGS a literal is written {9}, with no blanks inside the braces; its 9 bytes are skipped"], "\(literal)")
            #expect(try client.request("GET story").last?.hasPrefix("OK GET id=story") == true, "\(literal)")
        }
        #expect(try client.request("GET q").last?.hasPrefix("ERR NODOC") == true)
    }

    /// HELP PUT shows the payload last, after the options.
    @Test func helpPutShowsThePayloadLast() throws {
        let daemon = try Daemon()
        let help = try daemon.connect().request("HELP PUT")
        #expect(help.first == "* PUT <id> [lang=<code>] [mode=reader|uax29] (\"text\" | {bytes} | <<WORD)")
        #expect(help.contains { $0.contains("lang=<code>  a BCP 47 tag") })
    }
}
