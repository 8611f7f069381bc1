// SmallTrapTests.swift: the smaller traps of issue 18 that a new user
// falls into: a start-up error naming the wrong address, and HELP examples
// whose stream ids the reader does not have.

import Foundation
import Testing

@Suite struct StartupErrorAddressTests {
    /// Runs lecternd with exactly `arguments` until it exits by itself
    /// (killed after 15 s if it does not); its status and standard error.
    private func runUntilExit(exactly arguments: [String]) throws -> (status: Int32, log: String) {
        let process = Process()
        process.executableURL = Daemon.executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let log = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: log, as: UTF8.self))
    }

    /// A second daemon on a port the first holds exits 1 and names the
    /// address it was asked for (it said `0.0.0.0:0`: libuv reports a taken
    /// port only at listen, when the socket has no name).
    @Test func aTakenPortIsNamedAsAskedFor() throws {
        let first = try Daemon()
        let second = try runUntilExit(exactly: ["--host", "127.0.0.1", "--port", String(first.port), "--memory"])
        #expect(second.status == 1)
        #expect(second.log.contains("event=start_failed"), "\(second.log)")
        #expect(second.log.contains("cannot listen on 127.0.0.1:\(first.port): address already in use"), "\(second.log)")
        #expect(second.log.contains("choose another --port"), "\(second.log)")
        #expect(!second.log.contains("0.0.0.0:0"), "\(second.log)")
        #expect(!second.log.contains("event=listening"))
        // The first one still serves.
        #expect(try first.connect().request("PING") == ["OK PONG"])
    }

    /// The Unix socket's error names its path (it always did; kept so).
    @Test func aTakenUnixSocketIsNamed() throws {
        let path = "/tmp/lectern-trap-\(UUID().uuidString.prefix(8)).sock"
        defer { unlink(path) }
        let first = try Daemon(["--unix-socket", path])
        let second = try runUntilExit(exactly: ["--host", "127.0.0.1", "--port", "0", "--memory", "--unix-socket", path])
        #expect(second.status == 1)
        #expect(second.log.contains("another daemon is listening on \(path)"), "\(second.log)")
        #expect(first.stop() == 0)
    }
}

@Suite struct StreamHelpExampleTests {
    /// Stream ids are the daemon's, not the connection's: a reader whose
    /// TYPE got stream=2 and who copies `SEEK 1 30` from HELP gets
    /// NOSTREAM. The examples of every stream command say where the id
    /// comes from instead of showing one.
    @Test func streamCommandExamplesTakeTheStreamFromTheTYPEReply() throws {
        let daemon = try Daemon()
        let other = try daemon.connect()
        #expect(try other.request("PUT story \"One. Two.\"").last?.hasPrefix("OK PUT") == true)
        #expect(try other.request("TYPE story interval=60000").last?.hasPrefix("OK TYPE stream=1 ") == true)

        let reader = try daemon.connect()
        #expect(try reader.request("TYPE story interval=60000").last?.hasPrefix("OK TYPE stream=2 ") == true)
        #expect(try reader.request("SEEK 1 3").last?.hasPrefix("ERR NOSTREAM") == true)
        for command in ["SEEK", "SPEED", "PAUSE", "RESUME", "STOP"] {
            let help = try reader.request("HELP \(command)")
            #expect(help.last == "OK \(command)")
            let examples = help.filter { $0.contains("->") }
            #expect(!examples.isEmpty, "\(help)")
            for example in examples {
                #expect(example.hasPrefix("* \(command) <s> "), "\(example)")
                #expect(example.contains("the stream= of your TYPE reply"), "\(example)")
                #expect(!example.contains("stream=1"), "\(example)")
            }
        }
        // Following the example with this reader's own stream works.
        #expect(try reader.request("SEEK 2 3").last?.hasPrefix("OK SEEK stream=2 end=3") == true)
    }
}

@Suite struct RedisCliHelpTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `command` with /bin/sh; its exit status and output.
    private func shell(_ command: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// redis-cli keeps `HELP` to itself (so `redis-cli HELP TAP` prints an
    /// empty line); the README says so in its Redis section, and the ways it
    /// gives to reach Lectern's HELP instead print HELP TAP's usage.
    @Test func theReadmeSaysRedisCliAnswersHelpAndHowToReachLecterns() throws {
        let daemon = try Daemon()
        let port = String(daemon.port)
        #expect(try shell("redis-cli -p \(port) HELP TAP").output.trimmingCharacters(in: .whitespacesAndNewlines) == "")

        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Redis clients")).upperBound
        let rest = readme[section...]
        let redisSection = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        let note = try #require(redisSection.range(of: "`redis-cli` answers `HELP` itself"))
        let block = try #require(redisSection[note.upperBound...].range(of: "```sh\n"))
        let end = try #require(redisSection[block.upperBound...].range(of: "```"))
        let commands = redisSection[block.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
        #expect(commands.count == 2)
        for command in commands {
            let result = try shell(command.replacingOccurrences(of: "7878", with: port))
            #expect(result.status == 0, "\(command): \(result.output)")
            #expect(result.output.contains("TAP <id> <x> <y>"), "\(command): \(result.output)")
        }
    }
}

@Suite struct StrictSessionScriptTests {
    /// A socket-only client, one request at a time with a 5 s read timeout:
    /// literals with no line end after them are answered, and so is every
    /// request of the session after them (Tests/Scripts/plain_strict_session_test.py).
    @Test func aPlainSocketStrictSessionGetsEveryReply() throws {
        let daemon = try Daemon()
        let script = RedisCliHelpTests.repository.appendingPathComponent("Tests/Scripts/plain_strict_session_test.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, String(daemon.port)]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.hasSuffix("ok\n"), "\(output)")
    }
}
