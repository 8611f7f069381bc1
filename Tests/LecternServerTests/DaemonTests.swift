// DaemonTests.swift: lecternd as a user meets it, over real loopback sockets.

import Foundation
import Testing

@Suite struct DaemonTests {
    @Test func answersPingHelpAndQuit() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        #expect(try client.request("PING") == ["OK PONG"])
        #expect(try client.request("ping \"hello there\"") == [#"OK "hello there""#])
        // A bare PING takes the plain-line path; these take the parsed one
        // (or do both): every spelling answers as PROTOCOL.md says.
        #expect(try client.request("  pInG  ") == ["OK PONG"])
        #expect(try client.request("@hc PING") == ["@hc OK PONG"])
        #expect(try client.request("PING hello") == ["OK \"hello\""])
        // An option PING does not take is refused (issue 18), not ignored.
        #expect(try client.request("PING x=1").last?.hasPrefix("ERR ARGS unknown option 'x' for PING") == true)
        #expect(try client.request("PING \"x=1\"") == [#"OK "x=1""#])

        let help = try client.request("HELP")
        #expect(help.last?.hasSuffix("commands; HELP <command> for one") == true)
        #expect(help.contains { $0.hasPrefix("* PING ") })
        #expect(help.contains { $0.hasPrefix("* QUIT") })

        #expect(try client.request("HELP quit").first == "* QUIT")
        #expect(try client.request("QUIT") == ["OK BYE"])
        #expect(try client.waitForClose())
        #expect(daemon.stop() == 0)
    }

    @Test func acceptsCRLFAndLFAndTagsEveryFinalLine() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        client.send("@1 PING\r\n@2 PING\n\n   \r\n@3 NOPE\r\n")
        #expect(try client.readReply() == ["@1 OK PONG"])
        #expect(try client.readReply() == ["@2 OK PONG"])
        #expect(try client.readReply().last?.hasPrefix("@3 ERR UNKNOWN") == true)
    }

    @Test func errorsNameTheProblemAndKeepTheConnectionOpen() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        #expect(try client.request("PIGN") == ["ERR UNKNOWN unknown command 'PIGN'; did you mean PING? (HELP lists commands)"])
        #expect(try client.request("FROBNICATE") == ["ERR UNKNOWN unknown command 'FROBNICATE' (HELP lists commands)"])
        #expect(try client.request("PING a b") == ["ERR ARGS PING takes at most 1 argument; usage: PING [message]"])
        #expect(try client.request("PING \"open") == ["ERR SYNTAX unterminated quoted string starting at column 6"])
        client.send(bytes: Array("PING ".utf8) + [0xFF, 0x0A])
        #expect(try client.readReply() == ["ERR UTF8 request is not valid UTF-8 at byte 5"])
        #expect(try client.request("PING") == ["OK PONG"])
    }

    @Test func servesAHundredClientsAtOnce() throws {
        let daemon = try Daemon()
        let clients = try (0..<100).map { _ in try daemon.connect() }
        for (n, client) in clients.enumerated() { client.sendLine("@c\(n) PING \"client \(n)\"") }
        for (n, client) in clients.enumerated() {
            #expect(try client.readReply() == ["@c\(n) OK \"client \(n)\""])
        }
        // Every one of them is still served after the others went quiet.
        for client in clients.reversed() { #expect(try client.request("PING") == ["OK PONG"]) }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        let count = 5000
        client.send((0..<count).map { "@\($0) PING \($0)\r\n" }.joined())
        for n in 0..<count { #expect(try client.readReply() == ["@\(n) OK \"\(n)\""]) }
    }

    @Test func aTooLongLineGetsOneErrorAndAClose() throws {
        let daemon = try Daemon(["--max-line-bytes", "1024"])
        let bystander = try daemon.connect()
        let client = try daemon.connect()
        client.send(String(repeating: "x", count: 5000) + "\n")
        #expect(try client.readLine() == "ERR TOOLONG request line longer than 1024 bytes (--max-line-bytes); closing")
        #expect(try client.waitForClose())
        #expect(try bystander.request("PING") == ["OK PONG"])
    }

    @Test func binaryGarbageGetsOneErrorAndAClose() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        client.send(bytes: [0x00, 0x01, 0x02, 0xFF, 0x0A, 0x50, 0x0A])
        #expect(try client.readLine() == "ERR BINARY request contains a NUL byte; this is a text protocol")
        #expect(try client.waitForClose())
    }

    @Test func refusesConnectionsPastTheLimitWithAReason() throws {
        let daemon = try Daemon(["--max-connections", "2"])
        let first = try daemon.connect()
        let second = try daemon.connect()
        #expect(try first.request("PING") == ["OK PONG"])
        #expect(try second.request("PING") == ["OK PONG"])
        let third = try daemon.connect()
        #expect(try third.readLine()?.hasPrefix("ERR MAXCLIENTS") == true)
        #expect(try third.waitForClose())
        // A slot freed is a slot available again.
        #expect(try first.request("QUIT") == ["OK BYE"])
        #expect(try first.waitForClose())
        var fourth: LineClient?
        for _ in 0..<100 {  // the daemon sees the close within a loop turn or two
            let candidate = try daemon.connect()
            if try candidate.request("PING") == ["OK PONG"] {
                fourth = candidate
                break
            }
            usleep(10_000)
        }
        #expect(fourth != nil)
    }

    @Test func aClientThatNeverReadsIsClosedAtTheHardLimitAndOthersAreServed() throws {
        let daemon = try Daemon(["--output-hard-limit", "65536"])
        let reader = try daemon.connect()
        let hog = try LineClient(port: daemon.port, timeoutSeconds: 2)
        // ~16 MB of HELP replies requested, none read: more than loopback
        // socket buffers hold, so output piles up in the daemon.
        let batch = String(repeating: "HELP\n", count: 2000)
        var sentBatches = 0
        while sentBatches < 50 && hog.send(batch) {
            sentBatches += 1
            #expect(try reader.request("PING") == ["OK PONG"])
            if daemon.log.contains("output over hard limit") { break }
        }
        var closed = false
        for _ in 0..<500 where !closed {
            closed = daemon.log.contains("reason=\"output over hard limit")
            if !closed { usleep(10_000) }
        }
        #expect(closed)
        #expect(try reader.request("PING") == ["OK PONG"])
    }

    @Test func stopsCleanlyOnSigintAndSigterm() throws {
        for signal in [SIGINT, SIGTERM] {
            let daemon = try Daemon()
            let client = try daemon.connect()
            #expect(try client.request("PING") == ["OK PONG"])
            #expect(daemon.stop(signal: signal) == 0)
            #expect(try client.waitForClose())
            #expect(daemon.log.contains("event=shutting_down"))
            #expect(daemon.log.contains("event=stopped"))
            #expect(!daemon.log.contains("loop_close_failed"))
        }
    }
}
