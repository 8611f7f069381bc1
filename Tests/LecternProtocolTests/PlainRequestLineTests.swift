import LecternRandom
import Testing
@testable import LecternProtocol

@Suite struct PlainRequestLineTests {
    private func plain(_ text: String) -> PlainRequestLine? {
        PlainRequestLine(ArraySlice(Array(text.utf8)))
    }

    private func string(_ bytes: ArraySlice<UInt8>?) -> String? {
        bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func splitsBareWordsWithoutAParser() throws {
        let line = try #require(plain("@7 tap  doc-1\t30.5 10 slop=2"))
        #expect(string(line.tag) == "@7")
        #expect(line.commandIs(Array("TAP".utf8)))
        #expect(!line.commandIs(Array("TAPS".utf8)))
        #expect(line.positionalCount == 3)
        #expect(line.keyedCount == 1)
        #expect(string(line.positional(0)) == "doc-1")
        #expect(string(line.positional(2)) == "10")
        #expect(line.positional(3) == nil)
        #expect(string(line.value(for: "slop")) == "2")
        #expect(line.value(for: "slo") == nil)
    }

    @Test func positionalArgumentsSkipKeyValues() throws {
        let line = try #require(plain("TAP slop=1 doc x=9 30 slop=4 10"))
        #expect(line.positionalCount == 3)
        #expect(string(line.positional(0)) == "doc")
        #expect(string(line.positional(1)) == "30")
        #expect(string(line.positional(2)) == "10")
        // The last value of a repeated key, as Request.value(for:).
        #expect(string(line.value(for: "slop")) == "4")
    }

    @Test func linesThatNeedTheParserAreNotPlain() {
        #expect(plain("") == nil)
        #expect(plain(" \t ") == nil)
        #expect(plain("PUT d \"two words\"") == nil)
        #expect(plain("PUT d a\\b") == nil)
        #expect(plain("PUT d {12}") == nil)
        #expect(plain("PUT d <<END") == nil)
        #expect(plain("PUT d caf\u{E9}") == nil)
        #expect(plain("PING \u{1}") == nil)
        #expect(plain("@tag") == nil)
        #expect(plain("k=v PING") == nil)
        #expect(plain("A B C D E F G H I") == nil)
        #expect(plain(String(repeating: "x", count: PlainRequestLine.maximumLength + 1)) == nil)
        #expect(plain("A B C D E F G H") != nil)
    }

    /// Whatever line is plain, ``PlainRequestLine/request()`` is exactly
    /// what the general parser makes of it, and its accessors agree with
    /// the parsed request.
    @Test func agreesWithTheParserOnRandomLines() throws {
        let alphabet = Array("aZ09_-.:/@={}<>\"\\ \t=é\u{1}".unicodeScalars)
        var random = SplitMix64(seed: 0x7A9)
        var plainLines = 0
        for _ in 0..<20_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(random.next() % 24) {
                text.append(alphabet[Int(random.next() % UInt64(alphabet.count))])
            }
            let bytes = ArraySlice(Array(String(text).utf8))
            guard let line = PlainRequestLine(bytes) else { continue }
            plainLines += 1
            let parsed = try #require(try RequestParser.parse(bytes), "plain line \(String(text)) must parse")
            let request = line.request()
            #expect(request == parsed, "\(String(text))")
            #expect(line.positionalCount == parsed.positional.count)
            for (n, value) in parsed.positional.enumerated() {
                #expect(string(line.positional(n)) == value)
                #expect(string(line.positionalIndices(n).map { line.bytes[$0] }) == value)
            }
            #expect(line.positionalIndices(parsed.positional.count) == nil)
            line.withArguments { arguments in
                #expect(arguments.positionalCount == parsed.positional.count)
                #expect(arguments.keyedCount == parsed.arguments.count - parsed.positional.count)
                for (n, value) in parsed.positional.enumerated() {
                    #expect(arguments.positional(n).map { String(decoding: $0, as: UTF8.self) } == value)
                }
                #expect(arguments.positional(parsed.positional.count) == nil)
                #expect(arguments.value(for: "a").map { String(decoding: $0, as: UTF8.self) } == parsed.value(for: "a"))
            }
            #expect(line.tagString == parsed.tag)
            #expect(line.commandIs(Array(parsed.command.uppercased().utf8)))
        }
        #expect(plainLines > 1_000)
    }

    @Test func decoderYieldsPlainLinesOnlyWhenAsked() throws {
        var decoder = RequestDecoder(maximumLineLength: 1024, maximumPayloadLength: 1024)
        decoder.append(Array("TAP d 1 2\r\nPUT d {3}\r\nabc\r\n".utf8))
        guard case .request(let tap)? = decoder.next() else { Issue.record("expected a request"); return }
        #expect(tap.command == "TAP")

        decoder = RequestDecoder(maximumLineLength: 1024, maximumPayloadLength: 1024)
        decoder.yieldsPlainLines = true
        decoder.append(Array("TAP d 1 2\r\nPUT d {3}\r\nabc\r\n".utf8))
        guard case .plain(let line)? = decoder.next() else { Issue.record("expected a plain line"); return }
        #expect(line.commandIs(Array("TAP".utf8)))
        guard case .request(let put)? = decoder.next() else { Issue.record("expected the PUT"); return }
        #expect(put.payload == Array("abc".utf8))
    }
}

