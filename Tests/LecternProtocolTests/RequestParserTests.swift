import Testing
@testable import LecternProtocol

@Suite struct RequestParserTests {
    private func parse(_ text: String) throws -> Request? {
        try RequestParser.parse(ArraySlice(Array(text.utf8)))
    }

    private func error(_ bytes: [UInt8]) -> ProtocolError? {
        do {
            _ = try RequestParser.parse(ArraySlice(bytes))
            return nil
        } catch let error as ProtocolError {
            return error
        } catch {
            return nil
        }
    }

    @Test func blankLinesAreNotRequests() throws {
        #expect(try parse("") == nil)
        #expect(try parse(" \t ") == nil)
    }

    @Test func commandAndPositionalArguments() throws {
        let request = try #require(try parse("  TAP  doc1\t120 40.5 "))
        #expect(request.command == "TAP")
        #expect(request.tag == nil)
        #expect(request.positional == ["doc1", "120", "40.5"])
    }

    @Test func tagsComeFirst() throws {
        let request = try #require(try parse("@a7 PING"))
        #expect(request.tag == "@a7")
        #expect(request.command == "PING")
        #expect(RequestParser.tag(of: ArraySlice(Array("  @x9 BAD \"".utf8))) == "@x9")
        #expect(RequestParser.tag(of: ArraySlice(Array("PING @x".utf8))) == nil)
    }

    @Test func keyValueArguments() throws {
        let request = try #require(try parse(#"VIEW d width=320 font="Noto Sans" "a=b" =x"#))
        #expect(request.value(for: "width") == "320")
        #expect(request.value(for: "font") == "Noto Sans")
        #expect(request.positional == ["d", "a=b", "=x"])
    }

    @Test func quotedStringsAndEscapes() throws {
        let request = try #require(try parse(#"PUT d "line one\nsays \"hi\" \\ \t\u{1F600}\u{AC00}" "#))
        #expect(request.positional == ["d", "line one\nsays \"hi\" \\ \t😀가"])
        #expect(request.arguments[1].quoted)
        #expect(try parse(#"PING """#)?.positional == [""])
    }

    @Test func malformedQuotingIsASyntaxError() {
        #expect(error(Array(#"PING "open"#.utf8))?.code == .syntax)
        #expect(error(Array(#"PING "a"b"#.utf8))?.code == .syntax)
        #expect(error(Array(#"PING ab"c"#.utf8))?.code == .syntax)
        #expect(error(Array(#"PING "\q""#.utf8))?.code == .syntax)
        #expect(error(Array(#"PING "\u{D800}""#.utf8))?.code == .syntax)
        #expect(error(Array(#"PING "\u{110000}""#.utf8))?.code == .syntax)
        #expect(error(Array("@1".utf8))?.code == .syntax)
        #expect(error(Array(#""PING""#.utf8))?.code == .syntax)
    }

    @Test func invalidUTF8GivesTheByteOffset() {
        let bytes: [UInt8] = Array("PING é".utf8) + [0xC3]  // truncated sequence
        let failure = error(bytes)
        #expect(failure?.code == .invalidUTF8)
        #expect(failure?.message.hasSuffix("at byte 7") == true)
        #expect(firstInvalidUTF8Offset(in: [0xE0, 0x80, 0x80]) == 0)  // overlong
        #expect(firstInvalidUTF8Offset(in: [0x61, 0xED, 0xA0, 0x80]) == 1)  // surrogate
        #expect(firstInvalidUTF8Offset(in: [0xF4, 0x90, 0x80, 0x80]) == 0)  // > U+10FFFF
        #expect(firstInvalidUTF8Offset(in: Array("가😀".utf8)) == nil)
    }

    @Test func aNulByteMeansBinary() {
        #expect(error([0x50, 0x00, 0x51])?.code == .binary)
    }

    @Test func quotedTextRoundTrips() throws {
        let samples = ["", "plain", "two words", "quote \" and \\", "tab\tnew\nline\r\u{0}", "\u{1}\u{7F}", "한국어 文 😀👍🏽"]
        for text in samples {
            let request = try #require(try parse("PING " + ReplyEncoder.quote(text)))
            #expect(request.positional == [text])
        }
    }
}
