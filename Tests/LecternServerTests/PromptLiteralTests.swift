// PromptLiteralTests.swift: a literal's reply goes out as soon as its N
// bytes are in; the optional line end after it is consumed when it comes,
// never waited for (issue 18, item 3), against a live daemon.

import Foundation
import Testing

@Suite struct PromptLiteralTests {
    /// A strict request/response client sends a literal's bytes and
    /// nothing more: the reply comes without another byte, and a line end
    /// sent later is not read as a (blank) request of its own.
    @Test func aLiteralIsAnsweredBeforeAnyLineEndAfterIt() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        #expect(client.send("PUT t1 {9}\r\nOne. Two."))
        let put = try client.readReply()
        #expect(put.last?.hasPrefix("OK PUT id=t1 ") == true)
        #expect(put.last?.contains(" bytes=9 ") == true)
        #expect(put.last?.contains(" sentences=2 ") == true)
        #expect(client.send("\r\nPING\r\n"))
        #expect(try client.readReply() == ["OK PONG"])
    }

    /// A request right after a literal's bytes, with no line end between
    /// them, is a request of its own; a tag stays with the literal's reply.
    @Test func aRequestRightAfterTheBytesRuns() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        #expect(client.send("@a PUT t2 {3}\r\nHi.PING\r\n"))
        #expect(try client.readReply().last?.hasPrefix("@a OK PUT id=t2 ") == true)
        #expect(try client.readReply() == ["OK PONG"])
        #expect(try client.request("GET t2").last?.contains(" bytes=3 ") == true)
    }
}
