// StrictSessionTests.swift: one request at a time with a reply deadline,
// as a strict request/response app uses the SDK (issue 18's target).

import Foundation
import Testing
@testable import LecternClient
import LecternProtocol
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct StrictSessionTests {
    /// PUT (a literal with line ends and three scripts), VIEW, TAP, SELECT
    /// and MOVE, each awaited before the next is sent, on a connection whose
    /// requests fail rather than wait past 5 s: every reply comes.
    @Test func aStrictSessionGetsEveryReplyInTime() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await LecternConnection.connect(
            host: "127.0.0.1", port: daemon.port, timeout: .seconds(5), requestTimeout: .seconds(5))
        defer { lectern.close() }
        #expect(lectern.requestTimeout == .seconds(5))
        let text = "Dr. Smith arrived at 5 p.m. today.\nПривет, мир! Он опоздал.\n안녕하세요. 반갑습니다."

        let document = try await lectern.put("story", text: text)
        #expect(document.bytes == text.utf8.count)
        #expect(document.sentences == 5)
        #expect(document.paragraphs == 3)
        #expect(try await lectern.get("story").text == text)

        let view = try await lectern.view("story", ViewOptions(width: 200, size: 17, font: "DejaVu Sans"))
        #expect(view.lines >= 3)

        guard case .hit(let highlight, _, _, _) = try await lectern.tap("story", at: Point(x: 30, y: 10)) else {
            Issue.record("TAP at (30, 10) missed")
            return
        }
        #expect(highlight.sentence.number == 0)
        #expect(highlight.sentence.text == "Dr. Smith arrived at 5 p.m. today.")

        guard case .added(_, let selected) = try await lectern.select("story", at: Point(x: 30, y: 10)) else {
            Issue.record("SELECT at (30, 10) did not add the sentence")
            return
        }
        #expect(selected == 1)

        let moved = try await lectern.move("story", to: "notes")
        #expect(moved.sentences == 1)
        #expect(moved.target == "notes")
        #expect(try await lectern.get("notes").text == "Dr. Smith arrived at 5 p.m. today.")
        let source = try await lectern.get("story").text
        #expect(!source.contains("Dr. Smith"))
        #expect(source.contains("Привет, мир!"))
    }

    /// The SDK's literal PUT is whole without anything after its bytes:
    /// the daemon's own decoder yields the request from the line and the N
    /// bytes alone, so a reply never waits on the SDK. The `{N}` ends the
    /// line, after the options (a payload anywhere else is refused).
    @Test func aLiteralPutIsCompleteWithoutALineEndAfterIt() throws {
        var line = RequestLine("PUT")
        line.word("story")
        line.option("lang", "ko")
        let text = Array("첫 줄.\n둘째 줄.".utf8)
        line.literal(text)
        let bytes = line.encoded(tag: 3)
        let firstLine = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
        #expect(firstLine == "@3 PUT story lang=ko {\(text.count)}")
        #expect(bytes.last == 0x0A)

        var decoder = RequestDecoder(maximumLineLength: 1024, maximumPayloadLength: 1024)
        decoder.append(Array(bytes.dropLast()))  // without the optional line end
        guard case .request(let request)? = decoder.next() else {
            Issue.record("the line and its bytes were not a whole request")
            return
        }
        #expect(request.payload == text)
        #expect(request.value(for: "lang") == "ko")
    }

    /// A reply later than the request timeout fails that request with
    /// ``LecternError/requestTimeout`` instead of hanging; the late reply is
    /// dropped when it comes, and the next request gets its own.
    @Test func aLateReplyFailsTheRequestAndTheConnectionGoesOn() async throws {
        let server = try SilentUntilToldServer()
        let lectern = try await LecternConnection.connect(
            host: "127.0.0.1", port: server.port, timeout: .seconds(5), requestTimeout: .milliseconds(200))
        defer { lectern.close() }
        await #expect(throws: LecternError.requestTimeout) { try await lectern.ping() }
        server.answer()  // now "@1 OK PONG", too late, then the reply to what comes next
        #expect(try await lectern.ping("again") == "again")
        #expect(server.requests() == ["@1 PING", "@2 PING again"])
    }
}

/// A loopback server that reads PING lines and answers none until told
/// to: then it answers the first (`@1 OK "late"`) and each later one at
/// once, echoing its word (`@2 OK "again"`).
private final class SilentUntilToldServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var received: [String] = []
    private let released = DispatchSemaphore(value: 0)

    struct Failure: Error {}

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure() }
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw Failure()
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Lets the server answer.
    func answer() { released.signal() }

    /// The request lines read so far.
    func requests() -> [String] { lock.withLock { received } }

    private func serve() {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        defer { close(client) }
        var pending: [UInt8] = []
        var answered = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            while let end = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                lock.withLock { received.append(line) }
                // `@n PING [word]` -> `@n OK "word"`; the first, late, says "late".
                let words = line.split(separator: " ", maxSplits: 2).map(String.init)
                if answered == 0 { released.wait() }
                let echo = answered == 0 ? "late" : words.count > 2 ? words[2] : "PONG"
                answered += 1
                let reply = Array("\(words.first ?? "") OK \"\(echo)\"\r\n".utf8)
                guard reply.withUnsafeBytes({ send(client, $0.baseAddress, $0.count, 0) }) == reply.count else { return }
            }
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            pending.append(contentsOf: buffer[..<count])
        }
    }

    deinit {
        released.signal()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
