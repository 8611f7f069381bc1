import Testing
@testable import LecternProtocol

@Suite struct RequestDecoderTests {
    private func items(_ chunks: [String], payloadLimit: Int = 1000) -> [RequestDecoder.Item] {
        var decoder = RequestDecoder(maximumLineLength: 200, maximumPayloadLength: payloadLimit)
        var out: [RequestDecoder.Item] = []
        for chunk in chunks {
            decoder.append(Array(chunk.utf8))
            while let item = decoder.next() { out.append(item) }
        }
        return out
    }

    private func payloads(_ items: [RequestDecoder.Item]) -> [String?] {
        items.map {
            if case .request(let r) = $0 { return r.payload.map { String(decoding: $0, as: UTF8.self) } }
            return "<failure>"
        }
    }

    @Test func literalBytesAreTakenExactlyWithOrWithoutATrailingLineEnd() {
        let got = items(["PUT a lang=en {8}\r\nOne.\nTwo\r\nPING\n", "PUT b {3}\nxyzPING\n"])
        #expect(payloads(got) == ["One.\nTwo", nil, "xyz", nil])
        if case .request(let put) = got[0] {
            #expect(put.positional == ["a"])
            #expect(put.value(for: "lang") == "en")
        }
    }

    @Test func literalsSplitAcrossReadsAndAnEmptyLiteral() {
        let got = items(["PUT a {1", "0}\r\n01234", "56789", "\r", "\nPUT b {0}\r\n\r\nPING\n"])
        #expect(payloads(got) == ["0123456789", "", nil])
    }

    @Test func heredocJoinsLinesWithLF() {
        let got = items(["PUT a <<END\r\nFirst. Second.\r\n\nThird.\nEND\nPING\n"])
        #expect(payloads(got) == ["First. Second.\n\nThird.", nil])
        #expect(payloads(items(["PUT a <<E\nE\n"])) == [""])
    }

    @Test func anOversizedLiteralIsSkippedAndTheStreamStaysInStep() {
        let got = items(["@t PUT a {20}\n", "0123456789", "0123456789\nPING\n"], payloadLimit: 10)
        #expect(got.count == 2)
        if case .failure(let error, let tag, let closes) = got[0] {
            #expect(error.code == .payloadTooLarge)
            #expect(tag == "@t")
            #expect(!closes)
        } else {
            Issue.record("expected a failure first")
        }
        #expect(payloads([got[1]]) == [nil])
    }

    @Test func anOversizedHeredocIsSkippedToItsTerminator() {
        let got = items(["PUT a <<X\n0123456789\n0123456789\nX\nPING\n"], payloadLimit: 15)
        #expect(got.count == 2)
        if case .failure(let error, _, let closes) = got[0] {
            #expect(error.code == .payloadTooLarge)
            #expect(!closes)
        }
        #expect(payloads([got[1]]) == [nil])
    }

    @Test func aGarbledLiteralLengthClosesTheStream() {
        let got = items(["PUT a {12x}\nabc\nPING\n"])
        #expect(got.count == 1)
        if case .failure(let error, _, let closes) = got[0] {
            #expect(error.code == .payloadTooLarge)
            #expect(closes)
        }
    }

    @Test func quotedBracesAreNotLiterals() {
        let got = items(["PING \"{3}\"\nPING {3\n"])
        #expect(payloads(got) == [nil, nil])
    }

    /// The ERR ARGS of a refused payload and what came after it.
    private func refusal(_ item: RequestDecoder.Item?) -> (message: String, tag: String?)? {
        guard case .failure(let error, let tag, let closes)? = item, error.code == .arguments, !closes else { return nil }
        return (error.message, tag)
    }

    /// A `{N}` before the options (issue 18: `PUT korean {343} lang=ko`
    /// stored "{343}" and ran the 343 bytes as commands): ERR ARGS at the
    /// line, its bytes skipped however they arrive, the next line a request.
    @Test func aLiteralThatIsNotLastIsRefusedAndItsBytesSkipped() {
        for chunks in [["@k PUT korean {5} lang=ko\r\nabcde\r\nPING\n"], ["@k PUT korean {5} lang=ko\n", "ab", "cde", "\nPING\n"]] {
            let got = items(chunks)
            #expect(got.count == 2, "\(chunks)")
            let refused = refusal(got.first)
            #expect(refused?.tag == "@k")
            #expect(refused?.message.contains("last token") == true, "\(String(describing: refused))")
            #expect(refused?.message.contains("5 bytes are skipped") == true)
            guard case .request(let ping)? = got.last else { Issue.record("no PING after the skipped bytes: \(got)"); continue }
            #expect(ping.command == "PING")
        }
    }

    /// `{ 5}`, `{5 }`, `{ 5 }` (issue 18: `PUT q { 5}` left the payload
    /// line to run as a command): refused as malformed literals, their
    /// bytes skipped all the same, wherever on the line.
    @Test func aLiteralWithBlanksInsideItsBracesIsRefusedAndItsBytesSkipped() {
        for line in ["PUT q { 5}", "PUT q {5 }", "PUT q { 5 }", "PUT q {  5}", "PUT q { 5} lang=en", "PUT q {\t5}"] {
            let got = items([line + "\nabcde\nPING\n"])
            #expect(got.count == 2, "\(line): \(got)")
            #expect(refusal(got.first)?.message.contains("no blanks inside the braces") == true, "\(line)")
            guard case .request(let ping)? = got.last else { Issue.record("\(line): \(got)"); continue }
            #expect(ping.command == "PING" && ping.arguments.isEmpty, "\(line)")
        }
    }

    /// A `<<WORD` before the options: ERR ARGS at the line, its lines up to
    /// WORD dropped, never run.
    @Test func aHeredocThatIsNotLastIsRefusedAndItsLinesDropped() {
        let got = items(["PUT h <<END lang=ko\nTAP x 1 1\nDEL h\nEND\nPING\n"])
        #expect(got.count == 2, "\(got)")
        #expect(refusal(got.first)?.message.contains("lines up to END are skipped") == true)
        guard case .request(let ping)? = got.last else { Issue.record("\(got)"); return }
        #expect(ping.command == "PING")
    }

    /// Two payload tokens: the first says what follows; a quoted `"{5}"`
    /// and `key={5}` are text, not payloads, and `{abc}` before the end too.
    @Test func theFirstPayloadTokenSaysWhatFollows() {
        let got = items(["PUT d {3} {8}\nabcPING\n", "PING \"{5}\" x\nPING k={5} x\nPING {abc} x\n"])
        #expect(refusal(got.first) != nil)
        #expect(got.count == 5, "\(got)")
        for item in got.dropFirst() {
            guard case .request(let ping) = item else { Issue.record("\(item)"); continue }
            #expect(ping.command == "PING" && ping.payload == nil)
        }
    }

    /// Before AUTH a misplaced payload is refused like any payload: the
    /// connection is closed at its line, before its bytes are read.
    @Test func aMisplacedPayloadBeforeAuthClosesTheConnection() {
        var decoder = RequestDecoder(maximumLineLength: 200, maximumPayloadLength: 1000, limits: .unauthenticated)
        decoder.append(Array("PUT d {5} lang=ko\nabcde\n".utf8))
        guard case .failure(let error, _, let closes)? = decoder.next() else { Issue.record("no failure"); return }
        #expect(error.code == .authenticationRequired && closes)
        #expect(decoder.next() == nil)
    }
}
