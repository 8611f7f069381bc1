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
}
