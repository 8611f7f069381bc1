// ReplyWriterTests.swift: every framing of every reply piece and event, byte for byte.

import Testing
@testable import LecternProtocol

@Suite struct ReplyWriterTests {
    static let line = ReplyWriter(.line)
    static let resp2 = ReplyWriter(.resp2)
    static let resp3 = ReplyWriter(.resp3)

    /// What `write` appends, as text (CR and LF spelled out).
    private func written(_ write: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        write(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func dataLines() {
        #expect(written { Self.line.data("sentence 0 range=0..4", into: &$0) } == "* sentence 0 range=0..4\r\n")
        #expect(written { Self.resp2.data("sentence 0 range=0..4", into: &$0) } == "$21\r\nsentence 0 range=0..4\r\n")
        #expect(written { Self.resp3.data("é", into: &$0) } == "$2\r\né\r\n")
        #expect(written { Self.line.data("", into: &$0) } == "* \r\n")
        #expect(written { Self.resp2.data("", into: &$0) } == "$0\r\n\r\n")
    }

    @Test func literalsCarryExactBytes() {
        let bytes = Array("a\r\nb".utf8)
        #expect(written { Self.line.literal(bytes, into: &$0) } == "* {4}\r\na\r\nb\r\n")
        #expect(written { Self.resp2.literal(bytes, into: &$0) } == "$4\r\na\r\nb\r\n")
        #expect(written { Self.resp3.literal([], into: &$0) } == "$0\r\n\r\n")
        #expect(written { Self.line.literal([], into: &$0) } == "* {0}\r\n\r\n")
    }

    @Test func statusLinesCarryTheTagInTheLineProtocolOnly() {
        #expect(written { Self.line.ok("PONG", tag: "@3", into: &$0) } == "@3 OK PONG\r\n")
        #expect(written { Self.line.ok("PONG", tag: nil, into: &$0) } == "OK PONG\r\n")
        #expect(written { Self.line.ok(tag: "@3", into: &$0) } == "@3 OK\r\n")
        #expect(written { Self.line.ok(tag: nil, into: &$0) } == "OK\r\n")
        for resp in [Self.resp2, Self.resp3] {
            #expect(written { resp.ok("PONG", tag: "@3", into: &$0) } == "+PONG\r\n")
            #expect(written { resp.ok(tag: "@3", into: &$0) } == "+OK\r\n")
        }
    }

    @Test func errors() {
        let error = ProtocolError(.unknownCommand, "no such thing")
        #expect(written { Self.line.error(error, tag: "@x", into: &$0) } == "@x ERR UNKNOWN no such thing\r\n")
        #expect(written { Self.line.error(error, tag: nil, into: &$0) } == "ERR UNKNOWN no such thing\r\n")
        #expect(written { Self.resp2.error(error, tag: "@x", into: &$0) } == "-UNKNOWN no such thing\r\n")
        #expect(written { Self.resp3.error(error, tag: nil, into: &$0) } == "-UNKNOWN no such thing\r\n")
    }

    @Test func wholeReplies() {
        let lines: [ReplyLine] = [.text("first"), .literal(Array("x\ny".utf8))]
        #expect(written { Self.line.reply(lines, status: "DONE n=2", tag: "@1", into: &$0) }
            == "* first\r\n* {3}\r\nx\ny\r\n@1 OK DONE n=2\r\n")
        #expect(written { Self.resp2.reply(lines, status: "DONE n=2", tag: "@1", into: &$0) }
            == "*3\r\n$5\r\nfirst\r\n$3\r\nx\ny\r\n+DONE n=2\r\n")
        #expect(written { Self.resp3.reply(lines, status: "", tag: nil, into: &$0) }
            == "*3\r\n$5\r\nfirst\r\n$3\r\nx\ny\r\n+OK\r\n")
        // Without data lines RESP has no array: the status alone.
        #expect(written { Self.resp2.reply([], status: "PONG", tag: nil, into: &$0) } == "+PONG\r\n")
        #expect(written { Self.line.reply([], status: "", tag: nil, into: &$0) } == "OK\r\n")
    }

    @Test func aValueReplacesTheGenericRESPShapeOnly() {
        let value = RESPValue.map([(.text("proto"), .integer(3)), (.text("modules"), .array([]))])
        #expect(written { Self.line.reply([.text("a")], status: "HELLO", value: value, tag: "@2", into: &$0) }
            == "* a\r\n@2 OK HELLO\r\n")
        #expect(written { Self.resp2.reply([.text("a")], status: "HELLO", value: value, tag: nil, into: &$0) }
            == "*4\r\n$5\r\nproto\r\n:3\r\n$7\r\nmodules\r\n*0\r\n")
        #expect(written { Self.resp3.reply([.text("a")], status: "HELLO", value: value, tag: nil, into: &$0) }
            == "%2\r\n$5\r\nproto\r\n:3\r\n$7\r\nmodules\r\n*0\r\n")
    }

    @Test func values() {
        #expect(written { Self.resp2.value(.simple("OK"), into: &$0) } == "+OK\r\n")
        #expect(written { Self.resp2.value(.integer(-42), into: &$0) } == ":-42\r\n")
        #expect(written { Self.resp2.value(.integer(Int.min), into: &$0) } == ":-9223372036854775808\r\n")
        #expect(written { Self.resp3.value(.bulk([0, 0x0D]), into: &$0) } == "$2\r\n\u{0}\r\r\n")
        #expect(written { Self.resp3.value(.array([.text("a"), .array([.integer(1)])]), into: &$0) }
            == "*2\r\n$1\r\na\r\n*1\r\n:1\r\n")
    }

    /// Memoised lines followed by a status written in place are the bytes
    /// of the whole reply, in every framing.
    @Test func memoisedLinesAndAStatusAreTheWholeReply() {
        let lines = ["rects 0,0,10,17", "outline 0,0;10,0;10,17;0,17", ""]
        for writer in [Self.line, Self.resp2, Self.resp3] {
            for count in 0...lines.count {
                let some = Array(lines.prefix(count))
                var memoised = writer.dataLines(some)
                writer.okPrefix(tag: "@7", into: &memoised)
                ShortLine.append(to: &memoised) { line in
                    line.write("TAP hit sentence=")
                    line.write(decimal: 12)
                    line.write(" distance=")
                    line.write(number: 0.5)
                    line.writeLineEnd()
                }
                var whole: [UInt8] = []
                writer.reply(some.map(ReplyLine.text), status: "TAP hit sentence=12 distance=0.5", tag: "@7", into: &whole)
                #expect(memoised == whole, "\(writer.framing) \(count)")
            }
        }
    }

    @Test func eventsCarryTheirDocumentAsAValueOfItsOwn() {
        let event = EventLine(document: "doc-1", text: "TICK doc-1 stream=3 end=12")
        #expect(written { Self.line.event(event, into: &$0) } == "! TICK doc-1 stream=3 end=12\r\n")
        #expect(written { Self.resp2.event(event, into: &$0) }
            == "*3\r\n$7\r\nmessage\r\n$5\r\ndoc-1\r\n$26\r\nTICK doc-1 stream=3 end=12\r\n")
        #expect(written { Self.resp3.event(event, into: &$0) }
            == ">3\r\n$7\r\nmessage\r\n$5\r\ndoc-1\r\n$26\r\nTICK doc-1 stream=3 end=12\r\n")
        // The document is what the event says, not a word read out of its line.
        let odd = EventLine(document: "d", text: "CHANGED")
        #expect(written { Self.resp2.event(odd, into: &$0) } == "*3\r\n$7\r\nmessage\r\n$1\r\nd\r\n$7\r\nCHANGED\r\n")
        #expect(event.appending(" rects=1,2,3,4") == EventLine(document: "doc-1", text: "TICK doc-1 stream=3 end=12 rects=1,2,3,4"))
    }

    @Test func aConnectionsWriterFollowsItsFraming() {
        #expect(ReplyWriter(resp: false, respVersion: 3).framing == .line)
        #expect(ReplyWriter(resp: true, respVersion: 2).framing == .resp2)
        #expect(ReplyWriter(resp: true, respVersion: 3).framing == .resp3)
    }

    @Test func aShortLineTrapsNothingUpToItsCapacity() {
        var bytes: [UInt8] = [UInt8(ascii: ">")]
        ShortLine.append(to: &bytes) { line in
            for _ in 0..<ShortLine.capacity { line.write(byte: UInt8(ascii: "x")) }
            #expect(line.count == ShortLine.capacity)
        }
        #expect(bytes.count == ShortLine.capacity + 1)
    }
}
