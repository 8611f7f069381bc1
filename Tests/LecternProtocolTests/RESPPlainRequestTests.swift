import LecternRandom
import Testing
@testable import LecternProtocol

/// RESP arrays whose bulk strings are all plain tokens reach the decoder's
/// caller as ``PlainRequestLine``s that mean exactly what the general RESP
/// path makes of them.
@Suite struct RESPPlainRequestTests {
    /// `elements` as a RESP array of bulk strings.
    private func resp(_ elements: [[UInt8]]) -> [UInt8] {
        var bytes = Array("*\(elements.count)\r\n".utf8)
        for element in elements {
            bytes += Array("$\(element.count)\r\n".utf8) + element + [0x0D, 0x0A]
        }
        return bytes
    }

    private func resp(_ elements: String...) -> [UInt8] {
        resp(elements.map { Array($0.utf8) })
    }

    private func decoder(plain: Bool) -> RequestDecoder {
        var decoder = RequestDecoder(maximumLineLength: 4096, maximumPayloadLength: 4096)
        decoder.yieldsPlainLines = plain
        return decoder
    }

    /// The one item `bytes` decodes to.
    private func item(_ bytes: [UInt8], plain: Bool) -> RequestDecoder.Item? {
        var decoder = decoder(plain: plain)
        decoder.append(bytes)
        return decoder.next()
    }

    private func string(_ bytes: ArraySlice<UInt8>?) -> String? {
        bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func plainElementsMakeAPlainLineWithoutATag() throws {
        guard case .plain(let line)? = item(resp("tap", "doc-1", "30.5", "slop=2", "10"), plain: true) else {
            Issue.record("expected a plain line"); return
        }
        #expect(line.framing == .resp)
        #expect(line.tag == nil)
        #expect(line.commandIs(Array("TAP".utf8)))
        #expect(line.positionalCount == 3)
        #expect(line.keyedCount == 1)
        #expect(string(line.positional(0)) == "doc-1")
        #expect(string(line.positional(2)) == "10")
        #expect(string(line.value(for: "slop")) == "2")
        var expected = Request(command: "tap", arguments: [
            Argument(value: "doc-1", quoted: true), Argument(value: "30.5", quoted: true),
            Argument(key: "slop", value: "2"), Argument(value: "10", quoted: true),
        ])
        expected.framing = .resp
        #expect(line.request() == expected)
    }

    /// What a line would read as a tag, a payload marker or a key=value
    /// command is, over RESP, a command name or a positional value.
    @Test func noTagsNoPayloadsOverRESP() throws {
        guard case .plain(let tagged)? = item(resp("@7", "PING"), plain: true) else {
            Issue.record("expected a plain line"); return
        }
        #expect(tagged.tag == nil)
        #expect(tagged.request().command == "@7")
        #expect(tagged.request().arguments == [Argument(value: "PING", quoted: true)])

        guard case .plain(let literal)? = item(resp("PUT", "d", "{5}"), plain: true) else {
            Issue.record("expected a plain line"); return
        }
        #expect(literal.request().arguments.last == Argument(value: "{5}", quoted: true))
        #expect(literal.request().payload == nil)

        guard case .plain(let keyed)? = item(resp("a=b", "x=", "=y", "1x=2"), plain: true) else {
            Issue.record("expected a plain line"); return
        }
        #expect(keyed.request().command == "a=b")
        #expect(keyed.request().arguments == [
            Argument(key: "x", value: ""), Argument(value: "=y", quoted: true), Argument(value: "1x=2", quoted: true),
        ])
    }

    @Test func elementsThatAreNotPlainTakeTheGeneralPath() {
        for elements in [
            ["PUT", "d", "two words"], ["PUT", "d", "a\tb"], ["PUT", "d", ""], ["PUT", "d", "caf\u{E9}"],
            ["PUT", "d", "a\"b"], ["PUT", "d", "a\\b"], ["PING", "\u{1}"], ["A", "B", "C", "D", "E", "F", "G", "H", "I"],
            ["PUT", "d", String(repeating: "x", count: PlainRequestLine.maximumLength)],
        ] {
            let bytes = resp(elements.map { Array($0.utf8) })
            guard case .request(let request)? = item(bytes, plain: true) else {
                Issue.record("\(elements) should not be plain"); continue
            }
            #expect(request.framing == .resp)
            #expect(.request(request) == item(bytes, plain: false))
        }
        guard case .plain = item(resp("A", "B", "C", "D", "E", "F", "G", "H"), plain: true) else {
            Issue.record("eight elements are plain"); return
        }
    }

    @Test func errorsAreUnchanged() {
        let nul = item(resp([Array("PI\0NG".utf8)]), plain: true)
        guard case .failure(let binary, nil, false)? = nul else { Issue.record("expected an error"); return }
        #expect(binary.code == .binary)
        let invalid = item(resp([Array("PUT".utf8), Array("d".utf8), [0x61, 0xFF]]), plain: true)
        guard case .failure(let utf8, nil, false)? = invalid else { Issue.record("expected an error"); return }
        #expect(utf8.code == .invalidUTF8)
        #expect(utf8.message == "argument 2 is not valid UTF-8 at byte 1")
        guard case .failure(let empty, nil, false)? = item(resp(""), plain: true) else { Issue.record("expected an error"); return }
        #expect(empty.code == .syntax)
    }

    /// Pipelined requests reuse the decoder's buffer; each plain line read
    /// before the next `next()` still holds its own request.
    @Test func pipelinedRequestsReuseTheBuffer() {
        var decoder = decoder(plain: true)
        decoder.append(resp("TAP", "doc", "120", "40") + resp("PUT", "d", "two words") + resp("TAP", "d2", "1", "2"))
        guard case .plain(let first)? = decoder.next() else { Issue.record("expected a plain line"); return }
        #expect(first.request().positional == ["doc", "120", "40"])
        guard case .request(let put)? = decoder.next() else { Issue.record("expected a request"); return }
        #expect(put.positional == ["d", "two words"])
        guard case .plain(let second)? = decoder.next() else { Issue.record("expected a plain line"); return }
        #expect(second.request().positional == ["d2", "1", "2"])
        #expect(decoder.lastFraming == .resp)
        #expect(decoder.next() == nil)
    }

    /// The request RESP makes of `elements`, written out independently of
    /// the decoder: the first element is the command, the others are
    /// `key=value` (identifier key) or quoted positional values.
    private func expectedRequest(_ elements: [[UInt8]]) -> Request? {
        guard let first = elements.first, !first.isEmpty, !first.contains(0) else { return nil }
        var strings: [String] = []
        for element in elements {
            guard let string = String(validating: element, as: UTF8.self) else { return nil }
            strings.append(string)
        }
        var request = Request(command: strings[0], arguments: strings.dropFirst().map { value -> Argument in
            let utf8 = Array(value.utf8)
            if let equals = utf8.firstIndex(of: UInt8(ascii: "=")), equals > 0,
                utf8[..<equals].enumerated().allSatisfy({ RequestParser.isKeyByte($0.element, first: $0.offset == 0) })
            {
                return Argument(key: String(decoding: utf8[..<equals], as: UTF8.self),
                                value: String(decoding: utf8[(equals + 1)...], as: UTF8.self))
            }
            return Argument(value: value, quoted: true)
        })
        request.framing = .resp
        return request
    }

    /// Whatever element list is plain, the plain line's ``PlainRequestLine/request()``
    /// is exactly the request the general RESP path makes; whatever is not
    /// plain decodes exactly as it did without plain lines.
    @Test func agreesWithTheGeneralPathOnRandomElements() throws {
        let alphabet: [[UInt8]] = "aZ09_-.:/@={}<>\"\\ \t=é\u{1}\0".unicodeScalars.map { Array(String($0).utf8) } + [[0xFF]]
        var random = SplitMix64(seed: 0x5E5)
        var plainCount = 0
        var requestCount = 0
        var stream: [UInt8] = []
        var expected: [RequestDecoder.Item] = []
        for _ in 0..<20_000 {
            var elements: [[UInt8]] = []
            for _ in 0..<(1 + Int(random.next() % 10)) {
                var element: [UInt8] = []
                for _ in 0..<Int(random.next() % 7) {
                    // Mostly word bytes, so that many lists are plain.
                    let pick = Int(random.next() % UInt64(alphabet.count * 3))
                    element += pick < alphabet.count ? alphabet[pick] : alphabet[pick % 5]
                }
                elements.append(element)
            }
            let bytes = resp(elements)
            let general = try #require(item(bytes, plain: false))
            if let request = expectedRequest(elements) {
                #expect(general == .request(request), "\(elements)")
            } else {
                guard case .failure = general else { Issue.record("\(elements) should fail"); continue }
            }
            stream += bytes
            expected.append(general)
            guard let decoded = item(bytes, plain: true) else { Issue.record("no item for \(elements)"); continue }
            if case .plain(let line) = decoded {
                plainCount += 1
                #expect(.request(line.request()) == general, "\(elements)")
                let parsed = line.request()
                #expect(line.positionalCount == parsed.positional.count)
                for (n, value) in parsed.positional.enumerated() {
                    #expect(string(line.positional(n)) == value)
                }
                #expect(line.tag == nil)
                #expect(line.commandIs(Array(parsed.command.uppercased().utf8)))
            } else {
                requestCount += 1
                #expect(decoded == general, "\(elements)")
            }
        }
        #expect(plainCount > 1_000)
        #expect(requestCount > 1_000)

        // The same requests pipelined through one decoder, its buffers reused.
        var decoder = decoder(plain: true)
        decoder.append(stream)
        for want in expected {
            guard let got = decoder.next() else { Issue.record("stream ended early"); return }
            if case .plain(let line) = got {
                #expect(.request(line.request()) == want)
            } else {
                #expect(got == want)
            }
        }
        #expect(decoder.next() == nil)
    }

    /// A request that is buffered whole is read in one step
    /// (``RESP/wholeArray(in:limit:maximumElements:ranges:scanned:)``); the same bytes arriving one at
    /// a time are read line by line. Both give the same items, plain and
    /// general, for arrays of up to 20 elements (past the one-step limit of
    /// 16) with empty, binary and key=value elements, and for a malformed
    /// tail, whose error both report the same way.
    @Test func wholeAndByteByByteArrivalsAgree() throws {
        let bytes: [UInt8] = [UInt8(ascii: "a"), UInt8(ascii: "="), UInt8(ascii: " "), 0xFF, UInt8(ascii: "7"), UInt8(ascii: "P")]
        var random = SplitMix64(seed: 0xB17E)
        var stream: [UInt8] = []
        for _ in 0..<2_000 {
            var elements: [[UInt8]] = []
            for _ in 0..<(1 + Int(random.next() % 20)) {
                elements.append((0..<Int(random.next() % 12)).map { _ in bytes[Int(random.next() % UInt64(bytes.count))] })
            }
            stream += resp(elements)
        }
        stream += Array("*2\r\n$3\r\nTAP\r\n$2\r\nabc\r\n".utf8)
        for plain in [false, true] {
            var whole = decoder(plain: plain)
            whole.append(stream)
            var trickled = decoder(plain: plain)
            var offset = 0
            var count = 0
            var last: RequestDecoder.Item?
            while let want = whole.next() {
                last = want
                var got = trickled.next()
                while got == nil && offset < stream.count {
                    trickled.append(stream[offset...offset])
                    offset += 1
                    got = trickled.next()
                }
                #expect(got == want, "item \(count)")
                count += 1
            }
            #expect(count == 2_001)
            guard case .failure(_, _, closesConnection: true)? = last else {
                Issue.record("the malformed tail was not reported last: \(String(describing: last))")
                continue
            }
            #expect(whole.next() == nil && trickled.next() == nil)
        }
    }
}
