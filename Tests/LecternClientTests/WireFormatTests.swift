// WireFormatTests.swift: the SDK's reading and writing of protocol lines, without a daemon.

import LecternProtocol
import Testing
@testable import LecternClient

@Suite struct WireFormatTests {
    /// Feeds `text` to a reader in chunks of `chunk` bytes and collects what comes out.
    func messages(_ text: String, chunk: Int) throws -> [ServerMessage] {
        var reader = ReplyReader(maximumLineLength: 1 << 16)
        var out: [ServerMessage] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            bytes[start..<end].withUnsafeBytes { reader.append($0) }
            while let message = try reader.next() { out.append(message) }
            start = end
        }
        return out
    }

    @Test(arguments: [1, 2, 7, 4096])
    func repliesLiteralsAndEventsSplitAnywhere(chunk: Int) throws {
        let stream = "* {10}\r\nab\r\ncd{3}\n\r\n@4 OK GET id=x\r\n! CHANGED x by=2 revision=3 sentences=1\r\n"
            + "@5 ERR NODOC no document 'y' \"quoted\"\r\nOK PONG\r\n@6 OK\r\n"
        let out = try messages(stream, chunk: chunk)
        #expect(out.count == 5)
        guard out.count == 5 else { return }
        if case .ok(let reply) = out[0] {
            #expect(reply.tag == "@4")
            #expect(reply.text == "GET id=x")
            if case .literal(let bytes) = reply.data.first { #expect(bytes == Array("ab\r\ncd{3}\n".utf8)) } else {
                Issue.record("expected a literal")
            }
        } else {
            Issue.record("expected OK")
        }
        if case .event(let text) = out[1] { #expect(text == "CHANGED x by=2 revision=3 sentences=1") } else { Issue.record("expected an event") }
        if case .failure(let tag, let code, let message) = out[2] {
            #expect(tag == "@5")
            #expect(code == .noDocument)
            #expect(message == "no document 'y' \"quoted\"")
        } else {
            Issue.record("expected ERR")
        }
        if case .ok(let reply) = out[3] { #expect(reply.tag == nil && reply.text == "PONG") } else { Issue.record("expected OK PONG") }
        if case .ok(let reply) = out[4] { #expect(reply.tag == "@6" && reply.text.isEmpty) } else { Issue.record("expected @6 OK") }
    }

    static let runsReply = Reply(tag: nil, text: "LINES 1 runs=2 fonts=2", data: [
        .text(#"font 0 family="DejaVu Sans" file="/f/DejaVuSans.ttf" index=0 graphemes=9 primary=yes"#),
        .text(#"font 1 family="Noto Sans CJK" file="/f/NotoSansCJK.ttc" index=2 graphemes=3 primary=no"#),
        .text("line 0 range=0..7 top=0 baseline=18.56 height=23.28 x=0 width=70 paragraph=0 carets=0,10,20,30,40,50,60,70"),
        .text("run 0 range=0..3 font=0 size=20 x=40 width=30 direction=rtl"),
        .text("run 0 range=3..7 font=1 size=20 x=0 width=40 direction=ltr"),
    ])

    @Test func lineRunsAreReadInOrder() throws {
        let layout = try LineRuns(Self.runsReply)
        #expect(layout.fonts.map(\.family) == ["DejaVu Sans", "Noto Sans CJK"])
        #expect(layout.fonts[1].faceIndex == 2)
        #expect(layout.fonts.map(\.primary) == [true, false])
        #expect(layout.lines.count == 1)
        #expect(layout.lines[0].runs.map(\.range) == [0..<3, 3..<7])
        #expect(layout.lines[0].runs.map(\.direction) == [.rtl, .ltr])
        let run = layout.lines[0].runs[1]
        #expect(run.line == 0 && run.font == 1 && run.size == 20 && run.x == 0 && run.width == 40)
    }

    /// A reply that does not hold together is malformed, never a trap: runs
    /// from a daemon that ignores `runs=`, a run in an unlisted font, a run
    /// before its line, counts that differ from the data lines.
    @Test func lineRunsThatDoNotHoldTogetherAreMalformed() throws {
        var plain = Self.runsReply
        plain.text = "LINES 1"
        plain.data = [plain.data[2]]
        var unlisted = Self.runsReply
        unlisted.data[3] = .text("run 0 range=0..3 font=2 size=20 x=40 width=30 direction=rtl")
        var orphan = Self.runsReply
        orphan.data.swapAt(2, 3)
        var miscounted = Self.runsReply
        miscounted.text = "LINES 1 runs=3 fonts=2"
        var direction = Self.runsReply
        direction.data[4] = .text("run 0 range=3..7 font=1 size=20 x=0 width=40 direction=up")
        for reply in [plain, unlisted, orphan, miscounted, direction] {
            #expect(throws: LecternError.self) { _ = try LineRuns(reply) }
        }
    }

    /// A daemon older than `rules=` sends none: the SDK reads nil.
    @Test func documentInfoWithoutRulesIsRead() throws {
        let info = try DocumentInfo(try ReplyFields("id=a revision=1 bytes=4 length=4 sentences=1 paragraphs=1 lang=en mode=reader attachments=0"))
        #expect(info.rules == nil)
        #expect(info.language == "en")
        #expect(info.languages == [])
    }

    /// The paragraphs' languages, comma-separated; a sentence's language
    /// when the line has one (SENTENCES), nil when not (TAP).
    @Test func languagesAreRead() throws {
        let info = try DocumentInfo(try ReplyFields("id=a revision=1 bytes=4 length=4 sentences=1 paragraphs=3 lang=ko languages=ko,en,pt-BR rules=ko mode=reader attachments=0"))
        #expect(info.languages == ["ko", "en", "pt-BR"])
        let listed = try Sentence(try ReplyFields("sentence 0 range=0..4 content=0..4 paragraph=1 lang=pt-BR text=\"Olá.\""))
        #expect(listed.language == "pt-BR")
        #expect(listed.text == "Olá.")
        let tapped = try Sentence(try ReplyFields("sentence 0 range=0..4 content=0..4 paragraph=1 text=\"Olá.\""))
        #expect(tapped.language == nil)
    }

    @Test func anUnknownLineIsMalformed() {
        var reader = ReplyReader(maximumLineLength: 100)
        Array("HELLO?\r\n".utf8).withUnsafeBytes { reader.append($0) }
        #expect(throws: LecternError.malformedReply("HELLO?")) { _ = try reader.next() }
    }

    @Test func aLineOverTheLimitIsMalformed() {
        var reader = ReplyReader(maximumLineLength: 8)
        Array("* 0123456789abcdef".utf8).withUnsafeBytes { reader.append($0) }
        #expect(throws: LecternError.self) { _ = try reader.next() }
    }

    /// Every value the SDK sends parses back to itself with the daemon's own parser.
    @Test(arguments: ["plain", "two words", "a=b", "@tag", "{5}", "<<END", "quote\"back\\slash", "line\nbreak\r", "", "😀 한국어", "tab\t\u{1}"])
    func requestTokensRoundTripThroughTheDaemonsParser(value: String) throws {
        var line = RequestLine("PING")
        line.word(value)
        line.option("font", value)
        let bytes = line.encoded(tag: 7)
        let request = try #require(try RequestParser.parse(bytes.dropLast()))
        #expect(request.tag == "@7")
        #expect(request.command == "PING")
        #expect(request.positional == [value])
        #expect(request.value(for: "font") == value)
    }

    @Test func literalPayloadsCarryExactBytes() throws {
        var line = RequestLine("PUT")
        line.word("doc")
        line.literal(Array("a\r\nb".utf8))
        var decoder = RequestDecoder(maximumLineLength: 1024, maximumPayloadLength: 1024)
        decoder.append(line.encoded(tag: 1))
        guard case .request(let request)? = decoder.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(request.payload == Array("a\r\nb".utf8))
        #expect(request.positional == ["doc"])
    }

    @Test func numbersAreWrittenAsTheDaemonWritesThem() {
        #expect(WireValue.number(180.5) == "180.5")
        #expect(WireValue.number(17) == "17")
        #expect(WireValue.number(-3.25) == "-3.25")
        #expect(WireValue.number(0.05) == "0.05")
        #expect(WireValue.number(1.004) == "1")
        #expect(WireValue.number(-0.001) == "0")
    }

    @Test func geometryParses() throws {
        #expect(WireValue.rects("0,0,183.08,19.79;0,19.79,94.88,19.79")?.count == 2)
        #expect(WireValue.rects("0,0,1") == nil)
        let outline = try #require(Outline(wire: "162.11,19.79;162.11,39.58;100.28,39.58;100.28,19.79|39.08,39.58;39.08,59.37;0,59.37;0,39.58"))
        #expect(outline.polygons.map(\.count) == [4, 4])
        #expect(WireValue.range("3..10") == 3..<10)
        #expect(WireValue.range("10..3") == nil)
        #expect(Rect(x: 1, y: 2, width: 3.5, height: 4).description == "1,2,3.5,4")
    }

    @Test func stringRangesInEveryUnit() {
        let text = "I 👍🏽 it. 한국어"
        // "👍🏽" is two scalars, four UTF-16 units, eight UTF-8 bytes, one grapheme.
        let thumbs: [OffsetUnit: Range<Int>] = [.utf16: 2..<6, .utf8: 2..<10, .scalar: 2..<4, .grapheme: 2..<3]
        for (unit, range) in thumbs {
            let indices = text.range(range, in: unit)
            #expect(indices.map { String(text[$0]) } == "👍🏽", "unit \(unit)")
            if let indices {
                #expect(text.offset(of: indices.upperBound, in: unit) == range.upperBound)
            }
        }
        #expect(text.range(3..<6, in: .utf16) == nil, "inside a surrogate pair")
        #expect(text.range(3..<10, in: .utf8) == nil, "inside a UTF-8 sequence")
        #expect(text.range(0..<99, in: .grapheme) == nil, "past the end")
        #expect(text.index(atOffset: -1, in: .scalar) == nil)
    }
}
