// TypewriterTests.swift: typewriter streams over a live daemon.

import Foundation
import Testing

@Suite struct TypewriterTests {

    /// Reads events until `! DONE` for `stream`; returns the TICK lines.
    private func ticks(of stream: String, from client: LineClient) throws -> (ticks: [String], done: String) {
        var ticks: [String] = []
        while let line = try client.readLine() {
            if line.hasPrefix("! TICK"), fields(line)["stream"] == stream { ticks.append(line) }
            if line.hasPrefix("! DONE"), fields(line)["stream"] == stream { return (ticks, line) }
        }
        throw LineClient.Failure(description: "stream \(stream) ended without DONE")
    }

    /// Graphemes the ticks revealed: one each, plus the `skipped=` of a
    /// tick sent after the daemon fell behind (a loaded machine can do that).
    private func revealed(_ ticks: [String]) -> Int {
        ticks.reduce(0) { $0 + 1 + (fields($1)["skipped"].flatMap(Int.init) ?? 0) }
    }

    @Test func ticksRevealWholeGraphemesInOrder() throws {
        // Emoji with a skin tone, a flag, a ZWJ family, Hangul as conjoining
        // jamo, a combining accent: each must be revealed in one tick.
        let text = "A👍🏽🇰🇷👨‍👩‍👧 \u{1112}\u{1161}\u{11AB}e\u{301}. 끝!"
        let daemon = try Daemon()
        let client = try daemon.connect()
        #expect(try client.request("PUT g " + quoted(text)).last?.hasPrefix("OK PUT") == true)
        let reply = try client.request("TYPE g interval=2").last ?? ""
        let stream = try #require(fields(reply)["stream"])
        let (ticks, done) = try self.ticks(of: stream, from: client)

        // UTF-16 offsets of every grapheme end, as Swift counts Characters.
        var boundaries: [Int] = []
        var offset = 0
        for character in text {
            offset += character.utf16.count
            boundaries.append(offset)
        }
        // Each tick one grapheme further (or 1 + skipped=), ending on a boundary.
        var position = 0
        for tick in ticks {
            position += 1 + (fields(tick)["skipped"].flatMap(Int.init) ?? 0)
            #expect(fields(tick)["graphemes"] == String(position))
            #expect(fields(tick)["end"].flatMap(Int.init) == boundaries[min(position, boundaries.count) - 1])
        }
        #expect(position == text.count)
        #expect(done == "! DONE g stream=\(stream) end=\(text.utf16.count) graphemes=\(text.count)")
    }

    @Test func aPausedStreamSendsNothingUntilResumed() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        #expect(try client.request("PUT p \"Pause me. Then go on.\"").last?.hasPrefix("OK") == true)
        #expect(try client.request("TYPE p interval=60000").last?.hasPrefix("OK TYPE stream=1") == true)
        #expect(try client.request("PAUSE 1") == ["OK PAUSE stream=1 end=0 graphemes=0"])
        #expect(try client.request("SPEED 1 interval=1") == ["OK SPEED stream=1 interval=1"])
        // Paused: the next line on the wire is the reply to PING, no tick.
        #expect(try client.request("PING") == ["OK PONG"])
        #expect(try client.request("RESUME 1") == ["OK RESUME stream=1 end=0 graphemes=0"])
        let (ticks, done) = try self.ticks(of: "1", from: client)
        #expect(revealed(ticks) == 21)
        #expect(done == "! DONE p stream=1 end=21 graphemes=21")
    }

    @Test func aSlowReaderGetsCoalescedTicksAndStillSeesTheEnd() throws {
        let daemon = try Daemon(["--output-soft-limit", "0"])
        let setup = try daemon.connect()
        let text = String(repeating: "Many small ticks for a slow reader. ", count: 60)  // 2160 graphemes
        #expect(try setup.request("PUT long " + quoted(text)).last?.hasPrefix("OK PUT") == true)
        let slow = try LineClient(port: daemon.port, timeoutSeconds: 20, receiveBuffer: 4096)
        let streams = 40
        for _ in 0..<streams { slow.sendLine("TYPE long interval=1") }
        usleep(1_500_000)  // the reader looks away while ticks pile up
        var lastPosition: [String: Int] = [:]
        var done: Set<String> = []
        var tickCount = 0
        while done.count < streams, let line = try slow.readLine() {
            let f = fields(line)
            guard let stream = f["stream"] else { continue }
            if line.hasPrefix("! TICK"), let position = f["graphemes"].flatMap(Int.init) {
                #expect(position > lastPosition[stream, default: 0], "ticks never go backwards")
                lastPosition[stream] = position
                tickCount += 1
            } else if line.hasPrefix("! DONE") {
                #expect(f["graphemes"] == String(text.count))
                done.insert(stream)
            }
        }
        #expect(done.count == streams)
        #expect(tickCount < streams * text.count, "some ticks were coalesced")
        let stats = try setup.request("STATS")
        #expect(stats.contains { $0.hasPrefix("* events_coalesced ") && $0 != "* events_coalesced 0" })
    }

    @Test func aStuckReaderIsDroppedWhileAnotherStreamCompletes() throws {
        let daemon = try Daemon(["--output-soft-limit", "1000000000", "--output-hard-limit", "65536"])
        let setup = try daemon.connect()
        // Long enough (17 s a stream) that the 50 streams keep ticking, even
        // skipping ahead on a loaded machine, until the output passes the hard limit.
        let text = String(repeating: "A stuck reader must not hold anyone back. ", count: 400)
        #expect(try setup.request("PUT doc " + quoted(text)).last?.hasPrefix("OK PUT") == true)
        let stuck = try LineClient(port: daemon.port, timeoutSeconds: 20, receiveBuffer: 4096)
        for _ in 0..<50 { stuck.sendLine("TYPE doc interval=1") }
        let reader = try daemon.connect()
        #expect(try reader.request("PUT short \"Short and sweet, read on time.\"").last?.hasPrefix("OK") == true)
        #expect(try reader.request("TYPE short interval=5").last?.hasPrefix("OK TYPE") == true)
        let (ticks, done) = try self.ticks(of: "51", from: reader)
        #expect(revealed(ticks) == 30)
        #expect(done == "! DONE short stream=51 end=30 graphemes=30")
        var dropped = false
        for _ in 0..<1000 where !dropped {
            dropped = daemon.log.contains("reason=\"output over hard limit")
            if !dropped { usleep(10_000) }
        }
        #expect(dropped)
        #expect(try setup.request("PING") == ["OK PONG"])
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
