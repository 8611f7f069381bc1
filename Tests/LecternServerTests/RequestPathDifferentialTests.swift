// RequestPathDifferentialTests.swift: every request gives the same answer
// whether it comes as a plain line, a tagged line or a RESP array, and
// whether a command's arguments are read from the plain line's bytes (TAP,
// PING) or from the parsed request.

import Foundation
import Testing

@Suite struct RequestPathDifferentialTests {
    // MARK: The fuzz corpus

    /// The single requests of a corpus file, in order, with the bytes of
    /// their literals and heredocs. Left out: blank lines (no reply), QUIT
    /// (it closes), and lines after an unterminated payload. A file that
    /// holds RESP (a line starting with `*`) is left out whole: it is a RESP
    /// session already, not a line to send three ways.
    static func requests(inCorpusFile bytes: [UInt8]) -> [FormRequest]? {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> [UInt8] in
            line.last == 0x0D ? Array(line.dropLast()) : Array(line)
        }
        if bytes.last == 0x0A { lines.removeLast() }
        if lines.contains(where: { $0.first == UInt8(ascii: "*") }) { return nil }
        var requests: [FormRequest] = []
        var index = 0
        while index < lines.count {
            var line = lines[index]
            index += 1
            // A tag of the corpus's own is replaced by the test's.
            if line.first == UInt8(ascii: "@"), let space = line.firstIndex(of: UInt8(ascii: " ")) {
                line = Array(line[(space + 1)...])
            }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            let words = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
            if let first = words.first, String(decoding: first, as: UTF8.self).uppercased() == "QUIT" { continue }
            guard var last = words.last.map({ String(decoding: $0, as: UTF8.self) }) else { continue }
            // A payload token before the last (or `{ 5}`) is refused, its
            // payload consumed all the same: sent with it, in line form only.
            var refused = false
            if let marker = Self.misplacedPayloadMarker(words.map { String(decoding: $0, as: UTF8.self) }) {
                last = marker
                refused = true
            }
            if last.hasPrefix("{"), last.hasSuffix("}"), let count = Int(last.dropFirst().dropLast()), count >= 0 {
                // A literal: `count` bytes after the line, then a line end.
                let rest = Array(lines[index...].joined(separator: [0x0A]))
                guard rest.count >= count else { return requests }
                let payload = Array(rest[..<count])
                var consumed = payload
                // Lines are rebuilt with LF; step over the line end after the bytes.
                let after = rest[count...]
                if after.first == 0x0D { consumed.append(0x0D) }
                consumed.append(0x0A)
                requests.append(FormRequest(line: line, following: consumed, payload: refused ? nil : payload, isLineOnly: refused))
                // Skip the lines the payload and its line end covered.
                var covered = 0
                while index < lines.count && covered + lines[index].count + 1 <= count + 1 {
                    covered += lines[index].count + 1
                    index += 1
                }
                if covered != count + 1 { return requests }  // a literal that does not end at a line end
            } else if last.hasPrefix("<<"), last.count > 2 {
                let terminator = Array(last.dropFirst(2).utf8)
                guard let end = lines[index...].firstIndex(of: terminator) else { return requests }
                let body = lines[index..<end]
                let payload = Array(body.joined(separator: [0x0A]))
                let following = Array((body + [terminator]).joined(separator: [0x0A])) + [0x0A]
                requests.append(FormRequest(line: line, following: following, payload: refused ? nil : payload, isLineOnly: refused))
                index = end + 1
            } else {
                requests.append(FormRequest(line: line))
            }
        }
        return requests
    }

    /// The payload a line announces before its last token (`PUT d {5}
    /// lang=ko`), or with blanks inside its braces (`{ 5}`), written
    /// `{N}` or `<<WORD`: the first such, as the decoder reads it (nil
    /// for a line whose only payload token is its last).
    static func misplacedPayloadMarker(_ words: [String]) -> String? {
        func digits(_ text: Substring) -> Bool { !text.isEmpty && text.count <= 15 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) }
        for index in words.indices.dropFirst() {
            let word = words[index]
            let isLast = index == words.count - 1
            let next = index + 1 < words.count ? words[index + 1] : nil
            if word.hasPrefix("<<"), word.count > 2 { return isLast ? nil : word }
            guard word.hasPrefix("{") else { continue }
            if word.hasSuffix("}"), word.count >= 2, digits(word.dropFirst().dropLast()) { return isLast ? nil : word }
            if word == "{", let next, next.hasSuffix("}"), digits(next.dropLast()) { return "{\(next)" }
            if word == "{", let next, digits(next[...]), index + 2 < words.count, words[index + 2] == "}" { return "{\(next)}" }
            if digits(word.dropFirst()), next == "}" { return word + "}" }
        }
        return nil
    }

    /// Every corpus file's requests, each file on fresh connections, sent
    /// to four daemons as plain lines, tagged lines, RESP arrays and lines
    /// padded onto the parsed path (see ``RequestFormTrio``).
    ///
    /// RESP gets the line's tokens as RequestParser splits them (quotes
    /// removed, escapes resolved) and a payload as the last element. Lines
    /// that no RESP array can say the same way — lines that do not parse
    /// (bad UTF-8, NUL, bad quoting) or with a quoted `a=b` — go to the RESP
    /// daemon as lines, to keep its state in step, and are compared only in
    /// the two line forms; so are HELLO and STATS, whose RESP reply is a map,
    /// and payloads that are not UTF-8. STATS is not compared at all: its
    /// figures (uptime, memory) differ between daemons.
    @Test func corpusRequestsAnswerAlikeInEveryForm() throws {
        let files = try FileManager.default.contentsOfDirectory(at: FuzzCorpusTests.corpus, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let trio = try RequestFormTrio()
        var filesRun = 0
        for file in files {
            guard let requests = Self.requests(inCorpusFile: [UInt8](try Data(contentsOf: file))) else { continue }
            filesRun += 1
            try trio.reconnect()
            // Bounded: the largest files repeat one request hundreds of times.
            for request in requests.prefix(300) {
                let command = request.text.split(separator: " ").first.map { $0.uppercased() } ?? ""
                if command == "STATS" {
                    try trio.prepare(request)
                    continue
                }
                guard try trio.check(request, compareRESP: command != "HELLO") else { break }
            }
        }
        #expect(filesRun >= 40)
        #expect(trio.comparedInThreeForms >= 300)
        for difference in trio.differences {
            Issue.record("\(difference)")
        }
    }

    // MARK: Changes between taps

    /// TAPs between changes — an edit, an attachment, the connection's own
    /// view, the default view changed by another reader, the document
    /// deleted and put again — so that a view or layout remembered by the
    /// plain path is checked against the parsed path's fresh look-up.
    @Test func tapsAfterEachChangeAnswerAlike() throws {
        let trio = try RequestFormTrio()
        try trio.prepare(FormRequest("PUT c \(Self.quoted(Self.text))"))
        let taps = ["TAP c 20 10", "TAP c 150 30", "TAP c 60 70", "TAP c 250 120 slop=30", "RECTS c 2", "CARET c 40"]
        func tapAll() throws { for tap in taps { try trio.check(FormRequest(tap)) } }
        try tapAll()  // no view yet
        let changes: [(other: Bool, line: String)] = [
            (true, "VIEW c width=240 default=yes"),
            (false, "PUT c \"Short. Text.\""),
            (false, "PUT c \(Self.quoted(Self.text))"),
            (true, "ATTACH c box at=12 40 30"),
            (false, "VIEW c width=150 size=19"),
            (true, "VIEW c width=300 default=yes"),
            (true, "PUT c \"Another reader's text. It is longer than the short one. Much longer, in fact.\""),
            (false, "VIEW c width=0"),
            (true, "DETACH c box"),
            (false, "VIEW c width=200"),
            (true, "DEL c"),
            (true, "PUT c \(Self.quoted(Self.text))"),
            (true, "VIEW c width=180 default=yes"),
        ]
        for change in changes {
            if change.other { try trio.prepareFromAnotherReader(FormRequest(change.line)) } else { try trio.check(FormRequest(change.line)) }
            try tapAll()
        }
        #expect(trio.comparedInThreeForms == taps.count * (changes.count + 1) + changes.filter { !$0.other }.count)
        for difference in trio.differences {
            Issue.record("\(difference)")
        }
    }

    // MARK: Generated requests

    /// Paragraphs with abbreviations, right-to-left text, emoji (several
    /// UTF-16 units, several scalars per grapheme) and an inline box.
    static let text = """
        Dr. Smith arrived at 5 p.m. today. He was late! Nobody minded.
        שלום עולם. זה משפט שני! Mixed عربي text here.
        Emoji 👩‍👩‍👧‍👦 family. Flags 🇩🇪🇫🇷 and é̃ marks? Done.
        Last one.
        """

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// The generated set, in each offset unit: TAP on a grid over and
    /// around the text (hits, misses, the attachment, slop=, numbers in
    /// other spellings, wrong arity), RECTS of every sentence, CARET at every
    /// offset, SENTENCES with from and count, PING with and without a message.
    @Test(arguments: ["utf16", "utf8", "scalar", "grapheme"])
    func generatedRequestsAnswerAlikeInEveryForm(unit: String) throws {
        let trio = try RequestFormTrio()
        try trio.prepare(FormRequest("PUT g \(Self.quoted(Self.text))"))
        try trio.prepare(FormRequest("ATTACH g pic at=20 24 18 4"))
        try trio.prepare(FormRequest("VIEW g width=260 size=15 default=yes"))
        try trio.prepare(FormRequest("PUT own \(Self.quoted(Self.text))"))
        try trio.check(FormRequest("HELLO 1 units=\(unit)"), compareRESP: false)
        // `own`: this connection's own view (insets, line height), beside
        // `g`'s default view.
        try trio.check(FormRequest("VIEW own width=180 insets=8,12 line-height=1.4x"))

        for id in ["g", "own"] {
            for y in stride(from: -12.0, through: 420, by: 13) {
                for x in stride(from: -15.0, through: 280, by: 19) {
                    try trio.check(FormRequest("TAP \(id) \(x) \(y)"))
                }
                try trio.check(FormRequest("TAP \(id) 300 \(y) slop=25"))
            }
        }
        for spelling in [
            "TAP g 10 5", "TAP g 10.50 5", "TAP g 1e1 5", "TAP g +10 5", "TAP g .5 5", "TAP g 10. 5",
            "TAP g -0 -0", "TAP g 0x10 5", "TAP g 1_0 5", "TAP g nan 5", "TAP g inf 5", "TAP g 1e400 5",
            "TAP g 10 5 slop=0", "TAP g 10 5 slop=1e1", "TAP g 10 5 slop=-1", "TAP g 10 5 slop=abc",
            "TAP g 10 5 slop=1 slop=2", "TAP g 10 5 other=1", "TAP g 10 5 6", "TAP g 10", "TAP g",
            "TAP nodoc 10 5", "TAP bad/../id 10 5", "TAP g\t10\t5", "tap g 10 5", "Tap g 10 5",
            "TAP g 10 5 slop=", "TAP g x=1 10 5", "TAP \(String(repeating: "d", count: 300)) 1 1",
            "PING", "ping", "PING hello", "PING 12", "PING a b", "PING key=value", "PING \"two words\"",
            "PING é", "Ping", "PING slop=1",
        ] {
            try trio.check(FormRequest(spelling))
        }

        let sentences = Self.text.split(whereSeparator: { ".!?".contains($0) }).count
        for id in ["g", "own"] {
            for sentence in -1...(sentences + 2) {
                try trio.check(FormRequest("RECTS \(id) \(sentence)"))
            }
            let length: Int
            switch unit {
            case "utf8": length = Self.text.utf8.count
            case "scalar": length = Self.text.unicodeScalars.count
            case "grapheme": length = Self.text.count
            default: length = Self.text.utf16.count
            }
            for offset in -1...(length + 2) {
                try trio.check(FormRequest("CARET \(id) \(offset)"))
            }
        }
        for request in [
            "SENTENCES g", "SENTENCES g 0 1", "SENTENCES g 2", "SENTENCES g 3 2", "SENTENCES g 0 0",
            "SENTENCES g 99", "SENTENCES g -1", "SENTENCES g 1 999", "SENTENCES g x", "SENTENCES own 4 3",
            "SENTENCES nodoc",
        ] {
            try trio.check(FormRequest(request))
        }
        #expect(trio.comparedInThreeForms > 1000)
        for difference in trio.differences {
            Issue.record("\(difference)")
        }
        // Each daemon got as many requests (the setup's too): STATS counts
        // them alike whichever path ran them.
        let counts = try trio.commandsProcessed()
        #expect(Set(counts).count == 1, "\(counts)")
    }
}
