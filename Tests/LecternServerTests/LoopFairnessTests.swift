// LoopFairnessTests.swift: one connection's flood does not hold the loop — per-turn
// budgets, back-pressure on the soft limit, a typewriter scheduler that does
// bounded work and skips ahead, coalesced reading-along events.

import Foundation
import Testing

@Suite struct LoopFairnessTests {
    /// STATS as numbers by name (the version is left out).
    private func stats(_ client: LineClient) throws -> [String: Int] {
        var figures: [String: Int] = [:]
        for line in try client.request("STATS") where line.hasPrefix("* ") {
            let words = line.split(separator: " ")
            if words.count == 3, let value = Int(words[2]) { figures[String(words[1])] = value }
        }
        return figures
    }


    /// Reads lines until `count` final lines starting `OK TYPE` came, skipping events.
    private func readTypeReplies(_ count: Int, from client: LineClient) throws {
        var seen = 0
        while seen < count, let line = try client.readLine() {
            if line.hasPrefix("OK TYPE") { seen += 1 } else if !line.hasPrefix("!") {
                throw LineClient.Failure(description: "unexpected line \(line)")
            }
        }
        #expect(seen == count)
    }

    @Test func aPipelinedFloodTakesTurnsWithAnotherConnectionsPings() throws {
        let daemon = try Daemon()
        let flood = try daemon.connect()
        let bystander = try daemon.connect()
        let count = 20_000
        let writer = Thread {
            var batch = ""
            for n in 0..<count {
                batch += "@\(n) PING \(n)\n"
                if batch.utf8.count > 60_000 { flood.send(batch); batch = "" }
            }
            flood.send(batch)
        }
        writer.start()
        // Every PING of the other connection is answered, in order, while
        // the flood is read and run.
        for n in 0..<1000 {
            #expect(try bystander.request("@b\(n) PING") == ["@b\(n) OK PONG"])
        }
        for n in 0..<count {
            let reply = try flood.readReply()
            #expect(reply == ["@\(n) OK \"\(n)\""])
            if reply != ["@\(n) OK \"\(n)\""] { break }
        }
        // The flood had more requests buffered than a turn runs: it yielded.
        #expect(try stats(bystander)["turn_yields", default: 0] > 0)
        #expect(try flood.request("PING") == ["OK PONG"])
    }

    @Test func aTurnAlsoEndsAtItsOutputBudget() throws {
        // No request budget to speak of: only the 64 KiB of replies per turn ends one.
        let daemon = try Daemon(["--turn-requests", "1000000"])
        let client = try daemon.connect()
        let text = String(repeating: "Lorem ipsum dolor sit amet, consectetur. ", count: 100)
        #expect(try client.request("PUT page \"\(text)\"").last?.hasPrefix("OK PUT") == true)
        #expect(try client.request("STATS").contains("* turn_yields 0"))
        // 200 GETs in one write: 800 KB of replies, many turns' worth.
        client.send((0..<200).map { "@\($0) GET page\n" }.joined())
        for n in 0..<200 {
            let reply = try client.readReply()
            #expect(reply.count == 3 && reply[1] == text && reply[2].hasPrefix("@\(n) OK GET id=page "))
        }
        #expect(try stats(client)["turn_yields", default: 0] > 0)
    }

    @Test func aClientThatStopsReadingIsPausedNotDroppedAndThenServedInOrder() throws {
        let daemon = try Daemon()
        let bystander = try daemon.connect()
        // 4 KB of text: every GET's reply is a 4 KB literal line.
        let text = String(repeating: "Lorem ipsum dolor sit amet, consectetur. ", count: 100)
        #expect(try bystander.request("PUT page \"\(text)\"").last?.hasPrefix("OK PUT") == true)
        let reader = try LineClient(port: daemon.port, timeoutSeconds: 60, receiveBuffer: 4096)
        // 20 MB of replies asked for, more than the kernel's socket buffers hold.
        let count = 5000
        let writer = Thread {
            var batch = ""
            for n in 0..<count {
                batch += "@\(n) GET page\n"
                if batch.utf8.count > 16_000 { reader.send(batch); batch = "" }
            }
            reader.send(batch)
        }
        writer.start()
        // The reader reads nothing until the daemon has paused it and stopped
        // working for it: between two STATS, only the bystander's requests ran.
        var stable = false
        for _ in 0..<500 where !stable {
            let before = try stats(bystander)
            for _ in 0..<20 { #expect(try bystander.request("PING") == ["OK PONG"]) }
            let after = try stats(bystander)
            stable = after["output_pauses", default: 0] > 0
                && after["commands_processed", default: 0] - before["commands_processed", default: 0] == 21
            if !stable { usleep(10_000) }
        }
        #expect(stable, "the client that does not read is paused")
        // What waits for it stays small: about the soft limit (16 KiB) and
        // a turn's budget (64 KiB), nowhere near its 20 MB nor the 64 MiB hard limit.
        let waiting = try stats(bystander)["output_pending_max_bytes", default: -1]
        #expect(waiting >= 0 && waiting < 1 << 20, "\(waiting) bytes waiting")
        // Now it reads: every reply, in order, and it is still served.
        for n in 0..<count {
            let reply = try reader.readReply()
            #expect(reply.count == 3 && reply.last?.hasPrefix("@\(n) OK GET id=page ") == true)
            if reply.last?.hasPrefix("@\(n) OK GET") != true { break }
        }
        #expect(try reader.request("PING") == ["OK PONG"])
        #expect(!daemon.log.contains("output over hard limit"))
    }

    @Test func aThousandStreamsNobodyReadsDoNotStallTheDaemon() throws {
        let daemon = try Daemon()
        let bystander = try daemon.connect()
        // 60,000 graphemes: at interval=1 no stream ends during the test.
        let text = String(repeating: "Every stream at once, and nobody reads them. ", count: 1334)
        #expect(try bystander.request("PUT big \"\(text)\"").last?.hasPrefix("OK PUT") == true)
        #expect(try bystander.request("VIEW big width=400").last?.hasPrefix("OK VIEW") == true)
        var abusers: [LineClient] = []
        for _ in 0..<10 {
            let abuser = try LineClient(port: daemon.port, timeoutSeconds: 30, receiveBuffer: 4096)
            #expect(try abuser.request("VIEW big width=300").last?.hasPrefix("OK VIEW") == true)
            abuser.send(String(repeating: "TYPE big interval=1\n", count: 100))
            try readTypeReplies(100, from: abuser)  // then it stops reading
            abusers.append(abuser)
        }
        #expect(try stats(bystander)["streams"] == 1000)
        // PINGs, at least 1,000, until every abuser's socket buffers are
        // full and the daemon has paused it (bounded).
        var pings = 0
        var during: [String: Int] = [:]
        while pings < 50_000 && (pings < 1000 || during["output_pauses", default: 0] < 10) {
            for _ in 0..<500 {
                #expect(try bystander.request("@\(pings) PING") == ["@\(pings) OK PONG"])
                pings += 1
            }
            during = try stats(bystander)
        }
        #expect(during["output_pauses", default: 0] >= 10)
        #expect(during["events_coalesced", default: 0] > 0)
        #expect(during["output_pending_max_bytes", default: -1] < 1 << 20)
        // The streams' connections go; the daemon notices and serves a newcomer.
        abusers.removeAll()
        var streams = -1
        for _ in 0..<1000 where streams != 0 {
            streams = try stats(bystander)["streams", default: -1]
            if streams != 0 { usleep(10_000) }
        }
        #expect(streams == 0)
        let newcomer = try daemon.connect()
        #expect(try newcomer.request("PING") == ["OK PONG"])
        #expect(daemon.process.isRunning)
    }

    @Test func aStreamThatFellBehindSkipsAheadWithOneTickThatSaysSo() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        let text = String(repeating: "Typing goes on while the daemon is stopped. ", count: 50)  // 2,200 graphemes
        #expect(try client.request("PUT late \"\(text)\"").last?.hasPrefix("OK PUT") == true)
        #expect(try client.request("TYPE late interval=5").last?.hasPrefix("OK TYPE stream=1") == true)
        var position = 0
        var skip: [String: String]?
        var ticks = 0
        var forced = false
        while skip == nil, let line = try client.readLine() {
            if line.hasPrefix("! DONE") { break }
            guard line.hasPrefix("! TICK") else { continue }
            let tick = fields(line)
            let graphemes = Int(tick["graphemes"] ?? "") ?? -1
            let skipped = Int(tick["skipped"] ?? "0") ?? -1
            // Each tick is one grapheme on, or 1 + skipped=.
            #expect(graphemes == position + 1 + skipped)
            position = graphemes
            if skipped > 0 && forced { skip = tick }
            ticks += 1
            if ticks == 5 {
                // Force the daemon behind: stopped for far longer than a
                // stream may lag (100 ms) before it skips.
                kill(daemon.process.processIdentifier, SIGSTOP)
                usleep(400_000)
                kill(daemon.process.processIdentifier, SIGCONT)
                forced = true
            }
        }
        let found = try #require(skip, "a tick after the stop carries skipped=")
        // It skipped what it missed (about 80 graphemes at 5 ms), not a replay of each.
        #expect(Int(found["skipped"] ?? "") ?? 0 >= 20)
        #expect(try stats(client)["ticks_skipped", default: 0] >= 1)
        #expect(try client.request("STOP 1").last?.hasPrefix("OK STOP stream=1") == true)
    }

    @Test func readingAlongEventsCoalesceForAReaderThatDoesNotRead() throws {
        // A hard limit the old, uncoalesced SENTENCE events passed within a second.
        let daemon = try Daemon(["--output-hard-limit", "1048576"])
        let setup = try daemon.connect()
        // 3,000 graphemes in 750 short sentences: a SENTENCE every 4 ticks.
        let text = String(repeating: "Go. ", count: 750)
        #expect(try setup.request("PUT along \"\(text)\"").last?.hasPrefix("OK PUT") == true)
        let stuck = try LineClient(port: daemon.port, timeoutSeconds: 30, receiveBuffer: 4096)
        #expect(try stuck.request("VIEW along width=120").last?.hasPrefix("OK VIEW") == true)
        // What the reader sees, checked as it comes: per stream, sentences
        // in order, each after a tick in it; every stream's DONE.
        var lastSentence: [String: Int] = [:]
        var tickSentence: [String: Int] = [:]
        var done = 0
        var typeReplies = 0
        func see(_ line: String) {
            let event = fields(line)
            if line.hasPrefix("OK TYPE") { typeReplies += 1 }
            guard let stream = event["stream"], line.hasPrefix("! ") else { return }
            let sentence = event["sentence"].flatMap(Int.init) ?? -1
            if line.hasPrefix("! TICK") {
                tickSentence[stream] = sentence
            } else if line.hasPrefix("! SENTENCE") {
                #expect(sentence > lastSentence[stream, default: -1])
                #expect(tickSentence[stream] == sentence, "a SENTENCE follows a TICK in it")
                #expect(event["rects"] != nil)
                lastSentence[stream] = sentence
            } else if line.hasPrefix("! DONE") {
                #expect(event["graphemes"] == String(text.count))
                done += 1
            }
        }
        let streams = 100
        stuck.send(String(repeating: "TYPE along interval=1 follow=yes\n", count: streams))
        while typeReplies < streams, let line = try stuck.readLine() { see(line) }
        // Then it does not read while the streams run to their end.
        var running = streams
        var largest = 0
        for _ in 0..<3000 where running > 0 {
            let figures = try stats(setup)
            running = figures["streams", default: -1]
            largest = max(largest, figures["output_pending_max_bytes", default: 0])
            if running > 0 { usleep(10_000) }
        }
        #expect(running == 0, "the streams ran to their end")
        #expect(largest < 1 << 20, "\(largest) bytes waited for the reader")
        #expect(try stats(setup)["events_coalesced", default: 0] > 0)
        #expect(!daemon.log.contains("output over hard limit"))
        while done < streams, let line = try stuck.readLine() { see(line) }
        #expect(done == streams)
        #expect(try stuck.request("PING") == ["OK PONG"])
    }
}
