import Testing
@testable import LecternProtocol

@Suite struct LineDecoderTests {
    private func lines(_ decoder: inout LineDecoder) throws -> [String] {
        var out: [String] = []
        while let line = try decoder.next() { out.append(String(decoding: line, as: UTF8.self)) }
        return out
    }

    @Test func splitsOnLFAndCRLF() throws {
        var decoder = LineDecoder(maximumLineLength: 100)
        decoder.append(Array("PING\r\nHELP\nQUIT\r\n".utf8))
        #expect(try lines(&decoder) == ["PING", "HELP", "QUIT"])
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func aLoneCRIsPartOfTheLine() throws {
        var decoder = LineDecoder(maximumLineLength: 100)
        decoder.append(Array("a\rb\n\r\n".utf8))
        #expect(try lines(&decoder) == ["a\rb", ""])
    }

    @Test func waitsForTheRestOfALineAcrossReads() throws {
        var decoder = LineDecoder(maximumLineLength: 100)
        decoder.append(Array("PI".utf8))
        #expect(try decoder.next() == nil)
        decoder.append(Array("NG\r".utf8))
        #expect(try decoder.next() == nil)
        decoder.append(Array("\nHE".utf8))
        #expect(try lines(&decoder) == ["PING"])
        decoder.append(Array("LP\n".utf8))
        #expect(try lines(&decoder) == ["HELP"])
    }

    @Test func byteByByteGivesTheSameLines() throws {
        let text = "@1 PING \"a b\"\r\nHELP PING\n\nQUIT\r\n"
        var decoder = LineDecoder(maximumLineLength: 100)
        var got: [String] = []
        for byte in text.utf8 {
            decoder.append([byte])
            got += try lines(&decoder)
        }
        #expect(got == ["@1 PING \"a b\"", "HELP PING", "", "QUIT"])
    }

    @Test func aLineAtTheLimitPassesAndOneByteMoreThrows() throws {
        var decoder = LineDecoder(maximumLineLength: 8)
        decoder.append(Array("12345678\r\n".utf8))
        #expect(try lines(&decoder) == ["12345678"])

        var over = LineDecoder(maximumLineLength: 8)
        over.append(Array("123456789\n".utf8))
        #expect(throws: LineDecoder.LineTooLong(limit: 8)) { try over.next() }
    }

    @Test func anUnterminatedLinePastTheLimitThrowsBeforeItsEnd() throws {
        var decoder = LineDecoder(maximumLineLength: 1024)
        decoder.append([UInt8](repeating: UInt8(ascii: "x"), count: 1000))
        #expect(try decoder.next() == nil)
        decoder.append([UInt8](repeating: UInt8(ascii: "x"), count: 1000))
        #expect(throws: LineDecoder.LineTooLong.self) { try decoder.next() }
    }

    @Test func announcedBytesAreTakenWhole() throws {
        var decoder = LineDecoder(maximumLineLength: 100)
        decoder.append(Array("PUT\nab\ncd".utf8))
        #expect(try decoder.next().map { Array($0) } == Array("PUT".utf8))
        #expect(decoder.nextBytes(count: 6) == nil)
        decoder.append(Array("ef\nNEXT\n".utf8))
        #expect(decoder.nextBytes(count: 7).map { Array($0) } == Array("ab\ncdef".utf8))
        #expect(try lines(&decoder) == ["", "NEXT"])
    }

    @Test func manyPipelinedLinesKeepTheBufferSmall() throws {
        var decoder = LineDecoder(maximumLineLength: 64)
        var count = 0
        for _ in 0..<2000 {
            decoder.append(Array("PING\r\nPING\r\nPI".utf8))
            count += try lines(&decoder).count
            decoder.append(Array("NG\r\n".utf8))
            count += try lines(&decoder).count
        }
        #expect(count == 6000)
        #expect(decoder.bufferedByteCount == 0)
    }
}
