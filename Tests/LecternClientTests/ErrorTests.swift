// ErrorTests.swift: every ERR code the SDK can provoke, mapped to its LecternError case.

import LecternProtocol
import Testing
@testable import LecternClient

@Suite struct ErrorTests {
    /// The code of the error `body` throws, or nil.
    func code(_ body: () async throws -> Void) async -> LecternErrorCode? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? LecternError)?.code
        }
    }

    @Test func documentViewAndArgumentErrorsKeepTheConnection() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("intro", text: "Dr. Smith arrived. He was late!")
        #expect(await code { _ = try await lectern.help("XYZZY") } == .unknownCommand)
        #expect(await code { try await lectern.put("bad/id!", text: "x") } == .arguments)
        #expect(await code { try await lectern.put("bytes", bytes: [0x41, 0xFF, 0x42]) } == .invalidUTF8)
        #expect(await code { try await lectern.view("intro", ViewOptions(width: 0)) } == .number)
        #expect(await code { _ = try await lectern.lines(of: "nodoc") } == .noDocument)
        #expect(await code { _ = try await lectern.tap("intro", at: Point(x: 1, y: 1)) } == .noView)
        #expect(await code { _ = try await lectern.sentences(of: "intro", from: 9) } == .range)
        #expect(await code { try await lectern.detach("intro", name: "none") } == .noAttachment)
        #expect(await code { try await lectern.copy("intro", to: "other") } == .arguments)
        try await lectern.view("intro", ViewOptions(width: 200))
        #expect(await code { _ = try await lectern.caret("intro", at: 99) } == .range)
        #expect(await code { _ = try await lectern.rects("intro", sentence: 9) } == .range)
        #expect(try await lectern.ping("still open") == "still open")
    }

    @Test func theSentenceTravelsWithTheCode() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        await #expect(throws: LecternError.server(code: .noDocument, message: "no document 'nope' (LIST shows the documents)")) {
            try await lectern.get("nope")
        }
    }

    @Test func offsetsInsideACharacterAreRangeErrors() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("emoji", text: "I 👍🏽 it.")
        try await lectern.view("emoji", ViewOptions(width: 400))
        #expect(await code { _ = try await lectern.caret("emoji", at: 3) } == .range)
        #expect(await code { try await lectern.attach("emoji", name: "star", at: .offset(3), width: 10, height: 10) } == .range)
    }

    @Test func limitsMapToTheirCodes() async throws {
        let daemon = try LiveDaemon(arguments: ["--max-documents", "1", "--max-payload-bytes", "64"])
        let lectern = try await daemon.connect()
        try await lectern.put("one", text: "Only one.")
        #expect(await code { try await lectern.put("two", text: "No room.") } == .tooMany)
        #expect(await code { try await lectern.put("one", text: String(repeating: "Too long. ", count: 10)) } == .payloadTooLarge)
        #expect(try await lectern.ping("kept open") == "kept open")
    }

    @Test func aTooLongLineClosesTheConnection() async throws {
        let daemon = try LiveDaemon(arguments: ["--max-line-bytes", "256"])
        let lectern = try await daemon.connect()
        #expect(await code { _ = try await lectern.ping(String(repeating: "x", count: 1_000)) } == .lineTooLong)
        let states = lectern.connectionEvents()
        for await _ in states {}
        await #expect(throws: LecternError.self) { try await lectern.ping() }
    }

    @Test func maxClientsRefusesTheExtraConnection() async throws {
        let daemon = try LiveDaemon(arguments: ["--max-connections", "1"])
        let first = try await daemon.connect()
        try await first.ping()
        let second = try await daemon.connect()
        #expect(await code { try await second.ping() } == .maxClients)
        try await first.ping()
    }

    /// Every code LecternProtocol defines (and PROTOCOL.md lists; the
    /// server's tests hold those two together) has its own case.
    @Test func everyProtocolCodeMapsToItsCaseAndBack() {
        var cases: Set<LecternErrorCode> = []
        for word in ErrorCode.all.map(\.rawValue) {
            let code = LecternErrorCode(rawValue: word)
            #expect(code.rawValue == word)
            if case .unrecognized = code { Issue.record("\(word) is not mapped") }
            cases.insert(code)
        }
        #expect(cases.count == ErrorCode.all.count)
        #expect(LecternErrorCode(rawValue: "NEWCODE") == .unrecognized("NEWCODE"))
        #expect(LecternErrorCode(rawValue: "NEWCODE").rawValue == "NEWCODE")
    }
}
