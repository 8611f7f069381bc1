// HostileInputTests.swift: garbage of every kind, after which the daemon
// serves other clients normally and its memory is back near its baseline.

import Foundation
import LecternRandom
import Testing

@Suite struct HostileInputTests {
    private func residentBytes(_ client: LineClient) throws -> Int {
        let stats = try client.request("STATS")
        let line = stats.first { $0.hasPrefix("* memory_rss_bytes ") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? 0
    }

    @Test func theDaemonSurvivesABatteryOfGarbage() throws {
        let daemon = try Daemon(["--log-level", "error"])
        let bystander = try daemon.connect()
        #expect(try bystander.request("PUT doc \"A bystander's document. It must survive.\"").last?.hasPrefix("OK PUT") == true)
        #expect(try bystander.request("VIEW doc width=200").last?.hasPrefix("OK VIEW") == true)
        // Warm up the paths the battery uses, then take the baseline.
        for _ in 0..<3 { _ = try bystander.request("TAP doc 10 10") }
        let baseline = try residentBytes(bystander)
        var random = SplitMix64(seed: 20261130)

        // Random bytes, with and without line ends, on many connections.
        for _ in 0..<40 {
            let client = try daemon.connect()
            let bytes = (0..<Int.random(in: 1...20_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            client.send(bytes: bytes + [0x0A])
        }
        // Random printable lines: every one gets exactly one reply.
        let words = ["PUT", "GET", "TAP", "VIEW", "SELECT", "TYPE", "\"", "{3}", "<<E", "@t", "doc", "x=1", "-1", "1e309", "\\u{D800}", "\r"]
        let talker = try daemon.connect()
        for _ in 0..<500 {
            let line = (0..<Int.random(in: 1...6, using: &random)).map { _ in words.randomElement(using: &random) ?? "" }.joined(separator: " ")
            if line.contains("{3}") || line.contains("<<E") { continue }  // payloads would swallow the next lines
            // A line that is blank once a CR before its LF is dropped is not a request.
            let effective = line.hasSuffix("\r") ? String(line.dropLast()) : line
            if effective.allSatisfy({ $0 == " " }) { continue }
            talker.sendLine(line)
            let reply = try talker.readReply()
            #expect(reply.last.map(LineClient.isFinal) == true)
        }
        // A 10 MB line: one error, then the connection is closed.
        let long = try daemon.connect()
        long.send(bytes: [UInt8](repeating: UInt8(ascii: "A"), count: 10 << 20) + [0x0A])
        #expect(try long.readLine()?.hasPrefix("ERR TOOLONG") == true)
        // NUL bytes; invalid UTF-8; a lone CR, which does not end a line.
        let binary = try daemon.connect()
        binary.send(bytes: [0x00, 0x00, 0x0A])
        #expect(try binary.readLine()?.hasPrefix("ERR BINARY") == true)
        let mixed = try daemon.connect()
        mixed.send(bytes: [0xC0, 0xAF, 0x0A] + Array("PING\rPING\n".utf8))
        #expect(try mixed.readLine()?.hasPrefix("ERR UTF8") == true)
        #expect(try mixed.readLine()?.hasPrefix("ERR UNKNOWN unknown command 'PING\rPING'") == true)
        // 100,000 pipelined requests, answered in order.
        let pipeliner = try daemon.connect()
        let count = 100_000
        let writer = Thread {
            var batch = ""
            for n in 0..<count {
                batch += "@\(n) SENTENCES doc 1 1\n"
                if batch.utf8.count > 60_000 { pipeliner.send(batch); batch = "" }
            }
            pipeliner.send(batch)
        }
        writer.start()
        var answered = 0
        while answered < count, let line = try pipeliner.readLine() {
            if line.hasPrefix("@") {
                #expect(line == "@\(answered) OK SENTENCES 1 of 2")
                answered += 1
            }
        }
        #expect(answered == count)
        // Half-closed sockets: the requests sent before the FIN are answered.
        for _ in 0..<20 {
            let client = try daemon.connect()
            client.send("PING\nGET doc\n")
            client.shutdownWriting()
            #expect(try client.readLine() == "OK PONG")
            #expect(try client.waitForClose())
        }
        // A connection storm: open and drop, with and without a request.
        for n in 0..<2000 {
            let client = try daemon.connect()
            if n % 2 == 0 { client.send("PING\n") }
        }

        #expect(daemon.process.isRunning)
        #expect(try bystander.request("TAP doc 10 10").last?.hasPrefix("OK TAP hit sentence=0") == true)
        #expect(try bystander.request("GET doc").dropFirst().first == "A bystander's document. It must survive.")
        // Memory: buffers of closed connections are given back. Allow what
        // the allocator keeps for reuse, but not the 10 MB line or 100,000
        // replies' worth.
        var after = try residentBytes(bystander)
        for _ in 0..<30 where after > baseline + (24 << 20) {
            usleep(100_000)
            after = try residentBytes(bystander)
        }
        #expect(after <= baseline + (24 << 20), "RSS \(after) vs baseline \(baseline)")
    }
}
