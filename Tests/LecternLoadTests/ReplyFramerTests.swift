// ReplyFramerTests.swift: replies and events reassembled from arbitrary chunks.

import Testing
@testable import lectern_load

@Suite struct ReplyFramerTests {
    private func frames(_ text: String, framing: ReplyFramer.Framing = .lectern, chunk: Int = 1) throws -> [Frame] {
        var framer = ReplyFramer(framing: framing)
        var result: [Frame] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try bytes[start..<end].withUnsafeBytes { chunk in
                try framer.frames(in: chunk) { frame in
                    result.append(frame.materialized())
                    return true
                }
            }
            start = end
        }
        return result
    }

    private func reply(_ data: [String], _ final: String) -> Frame {
        .reply(Reply(dataLines: data.map { Array($0.utf8) }, finalLine: Array(final.utf8)))
    }

    @Test(arguments: [1, 3, 1000])
    func dataFinalEventsAndLiterals(chunk: Int) throws {
        let stream = "* sentence 0\r\n* rects 1\r\nOK TAP hit\r\n! TAP d by=1\r\n@7 ERR NODOC no\r\n* {5}\r\na\r\nb!\r\nOK GET id=x\r\nOK\r\n"
        #expect(try frames(stream, chunk: chunk) == [
            reply(["* sentence 0", "* rects 1"], "OK TAP hit"),
            .event(Array("! TAP d by=1".utf8)),
            reply([], "@7 ERR NODOC no"),
            reply(["a\r\nb!"], "OK GET id=x"),
            reply([], "OK"),
        ])
    }

    @Test func singleLineFramingMakesEveryLineAReply() throws {
        #expect(try frames("+PONG\r\n-ERR unknown\r\n", framing: .singleLine) == [
            reply([], "+PONG"), reply([], "-ERR unknown"),
        ])
    }

    /// A Redis bulk string is one reply, however it is cut: the `$N` line
    /// is its final line and the N bytes (CR, LF and all) its data line.
    @Test(arguments: [1, 4, 1000])
    func singleLineFramingReadsBulkStringsWhole(chunk: Int) throws {
        #expect(try frames("$5\r\na\r\nbc\r\n+PONG\r\n$0\r\n\r\n$-1\r\n$3\r\nxyz\r\n", framing: .singleLine, chunk: chunk) == [
            reply(["a\r\nbc"], "$5"), reply([], "+PONG"), reply([""], "$0"), reply([], "$-1"), reply(["xyz"], "$3"),
        ])
        // The bytes must be followed by CRLF.
        #expect(throws: ReplyFramer.UnexpectedLine.self) { try frames("$3\r\nxyzW\r\n", framing: .singleLine, chunk: chunk) }
    }

    /// RESP arrays are one reply each (header as the final line, the leaf
    /// values as data lines); a pushed pub/sub message is an event whose
    /// bytes are its payload; everything else reads as in single-line framing.
    @Test(arguments: [1, 5, 1000])
    func respFramingReadsArraysAndPushedMessages(chunk: Int) throws {
        let stream = "*3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n"
            + "*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$7\r\nhi\r\nyou\r\n"
            + ":42\r\n-ERR wrong\r\n$3\r\nabc\r\n*0\r\n*-1\r\n"
            + "*2\r\n*2\r\n:1\r\n$-1\r\n+OK\r\n"
            + "*4\r\n$8\r\npmessage\r\n$2\r\nc*\r\n$2\r\nch\r\n$0\r\n\r\n"
            + "*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n:5\r\n"
        #expect(try frames(stream, framing: .resp, chunk: chunk) == [
            reply(["subscribe", "ch", ":1"], "*3"),
            .event(Array("hi\r\nyou".utf8)),
            reply([], ":42"), reply([], "-ERR wrong"), reply(["abc"], "$3"), reply([], "*0"), reply([], "*-1"),
            reply([":1", "$-1", "+OK"], "*2"),
            .event([]),
            // Its payload is not a bulk string: a reply like any other array.
            reply(["message", "ch", ":5"], "*3"),
        ])
        // A bulk string inside an array must end with CRLF too.
        #expect(throws: ReplyFramer.UnexpectedLine.self) { try frames("*1\r\n$2\r\nabc\r\n", framing: .resp, chunk: chunk) }
    }

    @Test func respErrorsAreErrorReplies() {
        let publish = ReplyExpectation(data: [], final: ":")
        #expect(publish.check(Reply(finalLine: Array(":3".utf8)), framing: .resp) == .wellFormed)
        #expect(publish.check(Reply(finalLine: Array("-WRONGTYPE no".utf8)), framing: .resp) == .errorReply(code: "WRONGTYPE"))
    }

    @Test(arguments: ["OKAY\r\n", "hello\r\n", "* data\r\n! event inside a reply\r\n", "* {3}\r\nabcX\r\n"])
    func linesOutsideTheProtocolThrow(stream: String) {
        #expect(throws: ReplyFramer.UnexpectedLine.self) { try frames(stream, chunk: 100) }
    }

    @Test func aLineLongerThanTheLimitThrowsWithOrWithoutItsLineEnd() {
        for stream in ["OK 123456789\r\n", "* 1234567890123"] {
            var framer = ReplyFramer(framing: .lectern, maximumLineLength: 8)
            #expect(throws: ReplyFramer.LineTooLong.self) {
                try Array(stream.utf8).withUnsafeBytes { bytes in try framer.frames(in: bytes) { _ in true } }
            }
        }
    }

    @Test func framesCutAtTheEndOfAReadAreCarriedOverOnly() throws {
        var framer = ReplyFramer(framing: .lectern)
        var seen: [Frame] = []
        for chunk in ["OK A\r\n* sentence 1\r\n* re", "cts 2\r\nOK TAP hit\r\n"] {
            try Array(chunk.utf8).withUnsafeBytes { bytes in
                try framer.frames(in: bytes) { frame in
                    seen.append(frame.materialized())
                    return true
                }
            }
            if seen.count == 1 { #expect(framer.carriedByteCount == "* sentence 1\r\n* re".utf8.count) }
        }
        #expect(seen == [reply([], "OK A"), reply(["* sentence 1", "* rects 2"], "OK TAP hit")])
        #expect(framer.carriedByteCount == 0)
    }

    @Test func expectationsTellErrorsAndMalformedReplies() {
        let tap = ReplyExpectation(data: ReplyExpectation.highlightLines, final: "OK TAP hit ")
        let hit = Reply(dataLines: ["* sentence 1", "* rects 0,0,1,1", "* outline 0,0"].map { Array($0.utf8) }, finalLine: Array("OK TAP hit sentence=1".utf8))
        #expect(tap.check(hit, framing: .lectern) == .wellFormed)
        let miss = Reply(dataLines: [], finalLine: Array("OK TAP miss distance=3".utf8))
        guard case .malformed = tap.check(miss, framing: .lectern) else {
            Issue.record("a miss passed as a hit")
            return
        }
        let error = Reply(dataLines: [], finalLine: Array("@3 ERR NOVIEW send VIEW".utf8))
        #expect(tap.check(error, framing: .lectern) == .errorReply(code: "NOVIEW"))
        let redis = ReplyExpectation(data: [], finalPrefixes: ["+PONG"])
        #expect(redis.check(Reply(finalLine: Array("+PONG".utf8)), framing: .singleLine) == .wellFormed)
        #expect(redis.check(Reply(finalLine: Array("-ERR unknown command".utf8)), framing: .singleLine) == .errorReply(code: "ERR"))
    }

    @Test func lineFieldsReadTokens() {
        let line = Array("! TICK doc stream=12 end=40 graphemes=7 total=9".utf8)
        #expect(LineFields.integer("stream", in: line) == 12)
        #expect(LineFields.integer("graphemes", in: line) == 7)
        #expect(LineFields.integer("end", in: line) == 40)
        #expect(LineFields.integer("missing", in: line) == nil)
        #expect(LineFields.range("range", in: Array("* line 0 range=3..17 top=1".utf8)) == 3..<17)
        #expect(LineFields.number("top", in: Array("* line 0 top=19.79".utf8)) == 19.79)
    }
}
