// RequestPathBenchmarkTests.swift: the in-process harness behind bench-requests
// answers as the daemon does and counts what it measured.

import Testing
@testable import LecternServer
import LecternServerHarness

@Suite struct RequestPathBenchmarkTests {
    @Test func exchangesRepliesAndCountsMeasuredRequests() throws {
        let bench = try RequestPathBenchmark()
        let setup = Array("PUT d lang=en \"One. Two.\"\nVIEW d width=300\n".utf8)
        let put = try #require(bench.exchange(setup, finalLines: 2))
        let lines = String(decoding: put, as: UTF8.self).split(separator: "\r\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("OK PUT id=d ") && lines[1].hasPrefix("OK VIEW id=d "))

        let tap = try #require(bench.exchange(Array("TAP d 5 5\n".utf8), finalLines: 1))
        #expect(String(decoding: tap, as: UTF8.self).split(separator: "\r\n").last?.hasPrefix("OK TAP hit sentence=0 ") == true)

        // Two batches in turn, four requests each, 10 rounds: 40 replies of
        // the batches' own sizes ("OK PONG\r\n" is 9 bytes).
        let pings = Array("PING\nPING\nPING\nPING\n".utf8)
        let measured = try #require(bench.measure([pings, pings], finalLines: 4, rounds: 10))
        #expect(measured.requests == 40)
        #expect(measured.replyBytes == 40 * 9)
        #expect(measured.wallSeconds > 0 && measured.userSeconds >= 0 && measured.systemSeconds >= 0)
    }

    @Test func stopsWaitingWhenRepliesNeverCome() throws {
        let bench = try RequestPathBenchmark()
        // One request, but two final lines awaited: the harness gives up (bounded) instead of hanging.
        #expect(bench.exchange(Array("PING\n".utf8), finalLines: 2) == nil)
    }
}
