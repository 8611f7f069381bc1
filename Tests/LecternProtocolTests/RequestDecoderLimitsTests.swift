// RequestDecoderLimitsTests.swift: before AUTH only small requests are
// read, refused at their length line; after it the configured limits
// apply, to bytes already buffered too; buffers give memory back.

import Testing
@testable import LecternProtocol

@Suite struct RequestDecoderLimitsTests {
    static let small = RequestDecoder.maximumUnauthenticatedRequestBytes

    private func unauthenticated() -> RequestDecoder {
        RequestDecoder(maximumLineLength: 1 << 20, maximumPayloadLength: 16 << 20, limits: .unauthenticated)
    }

    private func drain(_ decoder: inout RequestDecoder) -> [RequestDecoder.Item] {
        var items: [RequestDecoder.Item] = []
        while let item = decoder.next() { items.append(item) }
        return items
    }

    /// The one item, an error that closes the connection, with this code and tag.
    private func expectRefusal(_ items: [RequestDecoder.Item], code: ErrorCode = .authenticationRequired, tag: String? = nil,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(items.count == 1, "\(items)", sourceLocation: sourceLocation)
        guard case .failure(let error, let gotTag, let closes) = items.first else {
            Issue.record("expected a refusal, got \(items)", sourceLocation: sourceLocation)
            return
        }
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(gotTag == tag, sourceLocation: sourceLocation)
        #expect(closes, sourceLocation: sourceLocation)
        if code == .authenticationRequired {
            #expect(error.message.contains("AUTH first") || error.message.contains("AUTH <token> first"), "\(error.message)",
                    sourceLocation: sourceLocation)
        }
    }

    private func resp(_ elements: [String]) -> [UInt8] {
        var bytes = Array("*\(elements.count)\r\n".utf8)
        for element in elements { bytes += Array("$\(element.utf8.count)\r\n\(element)\r\n".utf8) }
        return bytes
    }

    @Test func smallRequestsWorkBeforeAuth() {
        var decoder = unauthenticated()
        decoder.append(Array("PING\r\nHELLO 1 name=x\r\n@1 AUTH secret\r\n".utf8) + resp(["AUTH", "secret"]))
        let items = drain(&decoder)
        #expect(items.count == 4)
        #expect(items.allSatisfy { if case .request = $0 { true } else { false } })
    }

    @Test func aLiteralBeforeAuthIsRefusedAtItsLengthLine() {
        var decoder = unauthenticated()
        // Only the line: the refusal does not wait for the bytes.
        decoder.append(Array("@p PUT d {5}\r\n".utf8))
        expectRefusal(drain(&decoder), tag: "@p")
        // Nothing more is read from this stream.
        decoder.append(Array("Hello\r\nPING\r\n".utf8))
        #expect(drain(&decoder).isEmpty)
    }

    @Test func aHeredocBeforeAuthIsRefusedAtItsLine() {
        var decoder = unauthenticated()
        decoder.append(Array("PUT d <<END\r\n".utf8))
        expectRefusal(drain(&decoder))
    }

    @Test func aRESPBulkStringOverTheLimitBeforeAuthIsRefusedAtItsLength() {
        var decoder = unauthenticated()
        decoder.append(Array("*3\r\n$3\r\nPUT\r\n$1\r\nd\r\n$\(Self.small + 1)\r\n".utf8))
        expectRefusal(drain(&decoder))
        // A 15 MB one: the same, before any of its bytes.
        var big = unauthenticated()
        big.append(Array("*2\r\n$4\r\nAUTH\r\n$15000000\r\n".utf8))
        expectRefusal(drain(&big))
        // One of exactly the limit is read.
        var atLimit = unauthenticated()
        atLimit.append(resp(["PING", String(repeating: "p", count: Self.small)]))
        if case .request(let request) = drain(&atLimit).first {
            #expect(request.arguments.first?.value.utf8.count == Self.small)
        } else {
            Issue.record("a bulk string of exactly the limit should be read")
        }
    }

    @Test func aRESPArrayOverTheElementLimitBeforeAuthIsRefusedAtItsHeader() {
        let limit = RequestDecoder.maximumUnauthenticatedArrayLength
        var decoder = unauthenticated()
        decoder.append(Array("*\(limit + 1)\r\n".utf8))
        expectRefusal(drain(&decoder))
        var million = unauthenticated()
        million.append(Array("*1000000\r\n".utf8))
        expectRefusal(drain(&million))
        var atLimit = unauthenticated()
        atLimit.append(resp(["HELLO"] + Array(repeating: "x", count: limit - 1)))
        #expect(drain(&atLimit).count == 1)
    }

    @Test func aLineOverTheLimitBeforeAuthIsRefused() {
        var decoder = unauthenticated()
        decoder.append(Array(("PING " + String(repeating: "a", count: Self.small)).utf8))
        decoder.append(Array("\r\n".utf8))
        expectRefusal(drain(&decoder))
        // Without a line end: refused once more than the limit is buffered.
        var unterminated = unauthenticated()
        unterminated.append([UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024))
        expectRefusal(drain(&unterminated))
        // A line of exactly the limit is read.
        var atLimit = unauthenticated()
        atLimit.append(Array(("PING " + String(repeating: "a", count: Self.small - 5) + "\r\n").utf8))
        #expect(drain(&atLimit).count == 1)
    }

    @Test func aConfiguredLimitSmallerThanThePreAuthOneStaysTooLong() {
        var decoder = RequestDecoder(maximumLineLength: 100, maximumPayloadLength: 100, limits: .unauthenticated)
        decoder.append(Array((String(repeating: "a", count: 200) + "\n").utf8))
        expectRefusal(drain(&decoder), code: .lineTooLong)
    }

    /// AUTH, then a literal, in one read: the literal is read with the full
    /// limits once they are raised after the AUTH request.
    @Test func bytesBufferedAfterAuthAreReadWithTheFullLimits() {
        var decoder = unauthenticated()
        decoder.append(Array("AUTH token\r\nPUT d {5}\r\nHello".utf8))
        guard case .request(let auth) = decoder.next() else {
            Issue.record("expected AUTH")
            return
        }
        #expect(auth.command == "AUTH")
        decoder.limits = .full
        guard case .request(let put) = decoder.next() else {
            Issue.record("expected the PUT, with no line end after its bytes")
            return
        }
        #expect(put.payload == Array("Hello".utf8))
        #expect(decoder.next() == nil)
        // The same for a long line and a large RESP bulk string.
        var other = unauthenticated()
        let long = String(repeating: "x", count: 10_000)
        other.append(resp(["AUTH", "token"]) + Array("PING \(long)\r\n".utf8) + resp(["PING", long]))
        #expect(other.next() != nil)
        other.limits = .full
        let rest = drain(&other)
        #expect(rest.count == 2)
        #expect(rest.allSatisfy { if case .request(let r) = $0 { r.arguments.first?.value == long } else { false } })
    }

    /// A literal with no line end after it is answered without waiting for one;
    /// a line end that comes later is still dropped.
    @Test func aLiteralIsCompleteWhenItsBytesAre() {
        var decoder = RequestDecoder(maximumLineLength: 100, maximumPayloadLength: 100)
        decoder.append(Array("PUT d {3}\r\nabc".utf8))
        if case .request(let put) = decoder.next() { #expect(put.payload == Array("abc".utf8)) } else { Issue.record("no PUT") }
        decoder.append(Array("\r\nPING\r\n".utf8))
        let rest = drain(&decoder)
        #expect(rest.count == 1)
        if case .request(let ping) = rest.first { #expect(ping.command == "PING") }
    }

    // MARK: Memory

    /// After a large request of every framing, the decoder holds no more
    /// than its idle capacity, also when the next request is half here.
    @Test(arguments: ["literal", "heredoc", "resp", "line"])
    func aLargeRequestsMemoryIsGivenBack(framing: String) {
        let size = 4 << 20
        let text = String(repeating: "x", count: size)
        let request: [UInt8] = switch framing {
        case "literal": Array("PUT d {\(size)}\r\n\(text)\r\n".utf8)
        case "heredoc": Array("PUT d <<END\n\(text)\nEND\n".utf8)
        case "resp": resp(["PUT", "d", text])
        default: Array("PUT d \"\(text)\"\r\n".utf8)
        }
        for following in ["", "PING\r\nHEL"] {
            var decoder = RequestDecoder(maximumLineLength: 8 << 20, maximumPayloadLength: 8 << 20)
            let input = request + Array(following.utf8)
            var start = 0
            var items = 0
            while start < input.count {
                let end = min(start + 64 * 1024, input.count)
                decoder.append(input[start..<end])
                start = end
                while decoder.next() != nil { items += 1 }
            }
            #expect(items == (following.isEmpty ? 1 : 2), "\(framing)")
            #expect(decoder.retainedByteCount <= 3 * LineDecoder.retainedCapacity,
                    "\(framing) + '\(following)': \(decoder.retainedByteCount) bytes held")
        }
    }
}
