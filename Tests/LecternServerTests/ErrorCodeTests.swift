// ErrorCodeTests.swift: every error code the daemon has, provoked live.

import Foundation
import LecternProtocol
import LecternRandom
import LecternStore
import Testing
@testable import LecternServer

@Suite struct ErrorCodeTests {
    /// For each code: daemon flags, the bytes to send after a setup, and
    /// whether the connection must be closed after the error.
    struct Case: Sendable, CustomStringConvertible {
        let code: String
        var flags: [String] = []
        var setup: [String] = []
        let request: [UInt8]
        var closes = false
        var description: String { code }
    }

    static let cases: [Case] = [
        Case(code: "UNKNOWN", request: Array("FROB\n".utf8)),
        Case(code: "ARGS", request: Array("PING a b\n".utf8)),
        Case(code: "SYNTAX", request: Array("PING \"x\n".utf8)),
        Case(code: "UTF8", request: Array("PUT d {3}\n".utf8) + [0x61, 0xC3, 0x28] + [0x0A]),
        Case(code: "TOOLONG", flags: ["--max-line-bytes", "100"], request: Array((String(repeating: "x", count: 300) + "\n").utf8), closes: true),
        Case(code: "BINARY", request: [0x50, 0x00, 0x0A], closes: true),
        Case(code: "PAYLOAD", flags: ["--max-payload-bytes", "4"], request: Array("PUT d {10}\n0123456789\n".utf8)),
        Case(code: "NUMBER", setup: ["PUT d \"One. Two.\""], request: Array("SENTENCES d x\n".utf8)),
        Case(code: "NODOC", request: Array("GET nothing\n".utf8)),
        Case(code: "NOVIEW", setup: ["PUT d \"One. Two.\""], request: Array("TAP d 1 1\n".utf8)),
        Case(code: "RANGE", setup: ["PUT d \"One. Two.\""], request: Array("SENTENCES d 5\n".utf8)),
        Case(code: "TOOMANY", flags: ["--max-documents", "1"], setup: ["PUT a \"x\""], request: Array("PUT b \"y\"\n".utf8)),
        Case(code: "VERSION", request: Array("HELLO 9\n".utf8)),
        Case(code: "NOATTACH", setup: ["PUT d \"x\""], request: Array("DETACH d a\n".utf8)),
        Case(code: "NOSTREAM", request: Array("PAUSE 7\n".utf8)),
        Case(code: "TOOLARGE", flags: ["--output-hard-limit", "4096"],
             setup: ["PUT d \"" + String(repeating: "A sentence to draw. ", count: 20) + "\"", "VIEW d width=300"],
             request: Array("RENDER d\n".utf8)),
    ]

    @Test(arguments: cases)
    func errorCodeIsSentWithASentence(_ testCase: Case) throws {
        let daemon = try Daemon(testCase.flags)
        let client = try daemon.connect()
        for line in testCase.setup { #expect(try client.request(line).last?.hasPrefix("OK") == true) }
        client.send(bytes: testCase.request)
        let reply = try #require(try client.readLine())
        #expect(reply.hasPrefix("ERR \(testCase.code) "), "got: \(reply)")
        #expect(reply.count > "ERR \(testCase.code) ".count + 10, "the code must come with a sentence")
        if testCase.closes {
            #expect(try client.waitForClose())
        } else {
            #expect(try client.request("PING") == ["OK PONG"])
        }
        #expect(daemon.process.isRunning)
    }

    @Test func everyCodeTheDaemonDefinesIsProvokedHere() {
        // MAXCLIENTS: DaemonTests; READONLY and FULL: DurabilityTests (a real
        // immutable directory and a real full tmpfs); NOAUTH and AUTH:
        // AuthTests (a daemon with a token); IDLE: DocumentTests; STORE: below.
        let provoked = Set(Self.cases.map(\.code) + ["MAXCLIENTS", "READONLY", "FULL", "NOAUTH", "AUTH", "IDLE", "STORE"])
        for code in ErrorCode.all {
            #expect(provoked.contains(code.rawValue), "no live test provokes \(code)")
        }
    }
}

@Suite struct StoreErrorMappingTests {
    /// Store failures other than a read-only or full disk (a corrupted page
    /// found mid-run, an I/O error) cannot be provoked reliably on a live
    /// daemon; their mapping to `ERR STORE` is checked here.
    @Test func storeFailuresMapToProtocolCodes() {
        let cases: [(DocumentStoreError.Code, String)] = [
            (.readOnly, "READONLY"), (.full, "FULL"), (.corrupt, "STORE"), (.failure, "STORE"),
            (.invalidArgument, "STORE"), (.notFound, "NODOC"),
        ]
        for (code, expected) in cases {
            let mapped = DocumentPersistence.protocolError(DocumentStoreError(code, "disk I/O error"))
            #expect(mapped.code.rawValue == expected)
            #expect(mapped.message.contains("disk I/O error"))
        }
    }
}

@Suite struct WireTests {
    @Test func numbersOfAnySizeAreWritten() {
        #expect(Wire.number(180.5) == "180.5")
        #expect(Wire.number(17) == "17")
        #expect(Wire.number(-3.25) == "-3.25")
        #expect(Wire.number(0.004) == "0")
        #expect(Wire.number(-0.5) == "-0.5")
        #expect(Wire.number(1.05) == "1.05")
        #expect(Wire.number(1e300) == "1e+300")
        #expect(Wire.number(-1e300) == "-1e+300")
        #expect(Wire.number(.nan) == "0")
        #expect(Wire.number(-0.001) == "0")
        #expect(Wire.number(-12.1) == "-12.1")
    }

    @Test func numbersAppendedAsBytesMatchTheirText() {
        var random = SplitMix64(seed: 0x5EED)
        for i in 0..<20_000 {
            let scale = [1.0, 0.01, 100, 1e6, 1e13, 1e16][i % 6]
            let value = (Double(random.next() >> 11) / Double(1 << 53) - 0.5) * scale
            var bytes: [UInt8] = [UInt8(ascii: ">")]
            Wire.ShortLine.append(to: &bytes) { $0.write(number: value) }
            #expect(String(decoding: bytes, as: UTF8.self) == ">" + Wire.number(value), "\(value)")
        }
    }

    @Test func wholeNumbersWrittenAsBytesMatchTheirText() {
        var random = SplitMix64(seed: 0xDEC)
        var values = [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.max - 1, Int.min + 1]
        for digits in 1...19 {
            let power = (0..<digits - 1).reduce(1) { acc, _ in acc * 10 }
            values += [power, power - 1, -power, -(power - 1)]
        }
        for _ in 0..<20_000 { values.append(Int(bitPattern: UInt(random.next())) >> Int(random.next() % 64)) }
        for value in values {
            var bytes: [UInt8] = []
            Wire.ShortLine.append(to: &bytes) { line in
                line.write("n=")
                line.write(decimal: value)
            }
            #expect(String(decoding: bytes, as: UTF8.self) == "n=\(value)", "\(value)")
        }
    }

    /// The byte reader takes the commonest spellings and gives exactly
    /// what `Double(String)` gives; everything else is left to `Wire.double`.
    @Test func plainNumbersReadExactlyAsDoubleParsingDoes() throws {
        var random = SplitMix64(seed: 0xD0B1E)
        for _ in 0..<50_000 {
            let whole = String(random.next() % 100_000)
            let fraction = String(random.next() % 1_000_000_000)
            let text = (random.next() % 2 == 0 ? "-" : "") + whole + (random.next() % 3 == 0 ? "" : "." + fraction)
            let value = try #require(Wire.plainDouble(ArraySlice(text.utf8)), "\(text)")
            #expect(value.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
        for text in ["1e3", "+1", ".5", "1.", "-", "", "0x10", "nan", "inf", "1.2.3", "12345678901234567", "1,5"] {
            #expect(Wire.plainDouble(ArraySlice(text.utf8)) == nil, "\(text)")
        }
        #expect(Wire.plainDouble(ArraySlice("-0".utf8))?.sign == .minus)
    }
}
