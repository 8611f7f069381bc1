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
        // AuthTests (a daemon with a token); IDLE: DocumentTests; STORE: below;
        // UNAVAILABLE: ClusterFailureTests (a --redis node without its Redis).
        let provoked = Set(Self.cases.map(\.code) + ["MAXCLIENTS", "READONLY", "FULL", "NOAUTH", "AUTH", "IDLE", "STORE", "UNAVAILABLE"])
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
        #expect(Wire.number(1e300) == "1" + String(repeating: "0", count: 300))
        #expect(Wire.number(-1e300) == "-1" + String(repeating: "0", count: 300))
        #expect(Wire.number(.nan) == "0")
        #expect(Wire.number(-0.001) == "0")
        #expect(Wire.number(-12.1) == "-12.1")
    }

    /// The fast path's reader of request bytes agrees with the full
    /// reader of arguments: the same value, or nil where it says ERR NUMBER.
    @Test func requestBytesReadAsArgumentsDo() throws {
        var random = SplitMix64(seed: 0xD0B1E)
        let alphabet = Array("0123456789.e-+".utf8)
        for i in 0..<20_000 {
            let length = 1 + Int(random.next() % (i % 2 == 0 ? 8 : 40))
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let text = String(decoding: bytes, as: UTF8.self)
            let full = try? Wire.double(text, "x", in: Wire.coordinateRange)
            #expect(Wire.double(bytes, in: Wire.coordinateRange)?.bitPattern == full?.bitPattern, "\(text)")
        }
        #expect(throws: ProtocolError.self) { try Wire.double("0x10", "x", in: Wire.coordinateRange) }
        #expect(throws: ProtocolError.self) { try Wire.double(String(repeating: "1", count: 33), "x", in: Wire.lengthRange) }
        #expect(try Wire.double(String(repeating: "0", count: 31) + "1", "x", in: Wire.lengthRange) == 1)
    }
}
