// RequestDecoderWorkTests.swift: every framing decodes in work linear in
// its input, however the input is split into reads (counted, not timed).

import Testing
@testable import LecternProtocol

@Suite struct RequestDecoderWorkTests {
    /// The most bytes decoding may scan, and copy, per input byte. A
    /// quadratic decoder exceeds this by orders of magnitude at these sizes.
    static let workPerByte = 8

    private struct Run {
        var items: [RequestDecoder.Item] = []
        var work = DecodingWork()
        var largestBuffer = 0
    }

    /// Feeds `input` in reads of `chunk` bytes (as a socket delivers them),
    /// taking every item after each read.
    private func decode(_ input: [UInt8], chunk: Int, payloadLimit: Int = 16 << 20) -> Run {
        var decoder = RequestDecoder(maximumLineLength: 1 << 20, maximumPayloadLength: payloadLimit)
        var run = Run()
        var start = 0
        while start < input.count {
            let end = min(start + chunk, input.count)
            decoder.append(input[start..<end])
            start = end
            while let item = decoder.next() { run.items.append(item) }
            run.largestBuffer = max(run.largestBuffer, decoder.bufferedByteCount)
        }
        run.work = decoder.work
        return run
    }

    /// Feeds `parts` one read each.
    private func decode(parts: [[UInt8]]) -> Run {
        var decoder = RequestDecoder(maximumLineLength: 1 << 20, maximumPayloadLength: 16 << 20)
        var run = Run()
        for part in parts {
            decoder.append(part)
            while let item = decoder.next() { run.items.append(item) }
        }
        run.work = decoder.work
        return run
    }

    private func expectLinear(_ run: Run, inputBytes: Int, _ what: String) {
        #expect(run.work.bytesScanned <= Self.workPerByte * inputBytes, "\(what): scanned \(run.work.bytesScanned) for \(inputBytes)")
        #expect(run.work.bytesCopied <= Self.workPerByte * inputBytes, "\(what): copied \(run.work.bytesCopied) for \(inputBytes)")
    }

    private func payload(_ item: RequestDecoder.Item?) -> [UInt8]? {
        if case .request(let request) = item { return request.payload }
        return nil
    }

    // MARK: Refused payloads

    /// A literal before the options (`PUT d {N} lang=en`), refused at its
    /// line: its 1 MiB is skipped as it arrives, in work linear in it,
    /// never buffered, and the request after it runs.
    @Test func aMisplacedLiteralIsSkippedInLinearWork() {
        let count = 1 << 20
        let input = Array("PUT d {\(count)} lang=en\n".utf8) + [UInt8](repeating: UInt8(ascii: "A"), count: count) + Array("\nPING\n".utf8)
        for chunk in [65_536, 4093, 17] {
            let run = decode(input, chunk: chunk)
            expectLinear(run, inputBytes: input.count, "chunks of \(chunk)")
            #expect(run.items.count == 2, "chunks of \(chunk)")
            if case .request(let ping)? = run.items.last { #expect(ping.command == "PING") } else { Issue.record("no PING after the skipped literal") }
            #expect(run.largestBuffer <= 65_536 + 64, "chunks of \(chunk): buffered \(run.largestBuffer)")
        }
    }

    // MARK: Heredoc

    /// 1 MiB of one-byte lines: today's cost is each byte copied a few
    /// times; re-copying the text per line would be ~10¹¹ bytes.
    static let oneByteLines = 1 << 19
    static let heredocLines: [UInt8] = Array(String(repeating: "a\n", count: oneByteLines).utf8)
    static let heredoc: [UInt8] = Array("PUT d <<END\n".utf8) + heredocLines + Array("END\nPING\n".utf8)

    @Test func aHeredocOfOneByteLinesInSocketSizedReadsIsLinear() {
        let run = decode(Self.heredoc, chunk: 64 * 1024)
        #expect(run.items.count == 2)
        #expect(payload(run.items.first)?.count == 2 * Self.oneByteLines - 1)
        expectLinear(run, inputBytes: Self.heredoc.count, "heredoc in 64 KiB reads")
    }

    @Test func aHeredocOfOneByteLinesReadLineByLineIsLinear() {
        var parts: [[UInt8]] = [Array("PUT d <<END\n".utf8)]
        parts.append(contentsOf: repeatElement(Array("a\n".utf8), count: Self.oneByteLines))
        parts.append(Array("END\n".utf8))
        let run = decode(parts: parts)
        #expect(run.items.count == 1)
        #expect(payload(run.items.first) == Array(Self.heredocLines.dropLast()))
        expectLinear(run, inputBytes: Self.heredoc.count, "heredoc line by line")
    }

    @Test func aHeredocTooLongForThePayloadLimitIsSkippedInLinearWork() {
        let run = decode(Self.heredoc, chunk: 64 * 1024, payloadLimit: 1000)
        guard case .failure(let error, _, false) = run.items.first else {
            Issue.record("expected ERR PAYLOAD first, got \(run.items.first as Any)")
            return
        }
        #expect(error.code == .payloadTooLarge)
        #expect(run.items.count == 2)
        expectLinear(run, inputBytes: Self.heredoc.count, "skipped heredoc")
    }

    // MARK: Literal

    static let literalText = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    static let literal = Array("PUT d {\(1 << 20)}\r\n".utf8) + literalText + Array("\r\nPING\r\n".utf8)

    @Test(arguments: [1, 4096])
    func aOneMebibyteLiteralInSmallReadsIsLinear(chunk: Int) {
        let run = decode(Self.literal, chunk: chunk)
        #expect(run.items.count == 2)
        #expect(payload(run.items.first) == Self.literalText)
        expectLinear(run, inputBytes: Self.literal.count, "literal in \(chunk)-byte reads")
    }

    // MARK: RESP

    /// `*N` of N one-byte bulk strings: a request read element by element.
    static let respElements = 50_000
    static let respArray: [UInt8] = Array("*\(respElements + 1)\r\n$4\r\nPING\r\n".utf8)
        + Array(String(repeating: "$1\r\nx\r\n", count: respElements).utf8) + Array("*1\r\n$4\r\nPING\r\n".utf8)

    @Test(arguments: [1, 7, 4096, 64 * 1024])
    func aRESPArrayOfManyElementsIsLinearHoweverItArrives(chunk: Int) {
        let run = decode(Self.respArray, chunk: chunk)
        #expect(run.items.count == 2)
        if case .request(let request) = run.items.first {
            #expect(request.command == "PING")
            #expect(request.arguments.count == Self.respElements)
        } else {
            Issue.record("expected the long request first, got \(run.items.first as Any)")
        }
        expectLinear(run, inputBytes: Self.respArray.count, "RESP array in \(chunk)-byte reads")
    }

    /// A 15 MB bulk string in 64 KiB reads: its bytes are not rescanned per read.
    static let bulkLength = 15_000_000
    static let respBulk: [UInt8] = Array("*3\r\n$3\r\nPUT\r\n$1\r\nd\r\n$\(bulkLength)\r\n".utf8)
        + [UInt8](repeating: UInt8(ascii: "y"), count: bulkLength) + Array("\r\n*1\r\n$4\r\nPING\r\n".utf8)

    @Test func aLargeRESPBulkStringInSocketSizedReadsIsLinear() {
        let run = decode(Self.respBulk, chunk: 64 * 1024)
        #expect(run.items.count == 2)
        if case .request(let request) = run.items.first {
            #expect(request.command == "PUT")
            #expect(request.arguments.last?.value.utf8.count == Self.bulkLength)
        } else {
            Issue.record("expected the PUT first, got \(run.items.first as Any)")
        }
        expectLinear(run, inputBytes: Self.respBulk.count, "RESP bulk in 64 KiB reads")
    }

    // MARK: Plain lines

    static let longLine: [UInt8] = Array("PUT d \"".utf8) + [UInt8](repeating: UInt8(ascii: "z"), count: 512 * 1024)
        + Array("\"\r\nPING\r\n".utf8)

    @Test(arguments: [100, 1500])
    func aLongPlainLineInSmallReadsIsLinear(chunk: Int) {
        let run = decode(Self.longLine, chunk: chunk)
        #expect(run.items.count == 2)
        if case .request(let request) = run.items.first {
            #expect(request.arguments.last?.value.utf8.count == 512 * 1024)
        } else {
            Issue.record("expected the PUT first, got \(run.items.first as Any)")
        }
        expectLinear(run, inputBytes: Self.longLine.count, "plain line in \(chunk)-byte reads")
    }

    /// Many short lines in reads that split them: compaction moves each
    /// byte a bounded number of times.
    @Test func manyShortLinesSplitAcrossReadsAreLinear() {
        let input = Array(String(repeating: "PING\r\nHELP PING\r\n", count: 40_000).utf8)
        let run = decode(input, chunk: 4093)
        #expect(run.items.count == 80_000)
        expectLinear(run, inputBytes: input.count, "short lines in 4093-byte reads")
    }
}
