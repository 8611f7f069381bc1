// LoadOptionsTests.swift: flag parsing, defaults, bounds and the loopback rule.

import Testing
@testable import lectern_load

@Suite struct LoadOptionsTests {
    private func options(_ arguments: [String]) throws -> LoadOptions {
        guard case .run(let options) = try LoadOptions.parse(arguments) else {
            Issue.record("expected a run for \(arguments)")
            return LoadOptions()
        }
        return options
    }

    @Test func defaultsAreAClosedLoopTapRun() throws {
        let defaults = try options([])
        #expect(defaults.scenario == .tap)
        #expect(defaults.host == "127.0.0.1" && defaults.port == 7878)
        #expect(defaults.connections == 50 && defaults.depth == 1 && defaults.rate == 0)
        #expect(defaults.durationSeconds == 10 && defaults.warmupSeconds == 1)
        #expect(!defaults.json)
    }

    @Test func parsesEveryFlag() throws {
        let parsed = try options([
            "raw", "--host", "127.0.0.2", "--port", "6379", "--connections", "500", "--depth", "16",
            "--rate", "25000.5", "--duration", "30", "--warmup", "2", "--timeout", "1.5",
            "--max-requests", "1000", "--json", "--no-progress", "--request", "PING", "--expect", "+PONG",
            "--width", "400", "--watchers", "999", "--views", "10", "--interval", "75",
            "--streams-per-connection", "4", "--mix", "tap=1,put=2",
        ])
        #expect(parsed.scenario == .raw)
        #expect(parsed.host == "127.0.0.2" && parsed.port == 6379)
        #expect(parsed.connections == 500 && parsed.depth == 16 && parsed.rate == 25000.5)
        #expect(parsed.durationSeconds == 30 && parsed.warmupSeconds == 2 && parsed.timeoutSeconds == 1.5)
        #expect(parsed.maximumRequests == 1000 && parsed.json && !parsed.progress)
        #expect(parsed.requestLine == "PING" && parsed.expectedPrefix == "+PONG")
        #expect(parsed.viewWidth == 400 && parsed.watchers == 999 && parsed.views == 10)
        #expect(parsed.intervalMilliseconds == 75 && parsed.streamsPerConnection == 4)
        #expect(parsed.mix.total == 3 && parsed.mix.kind(at: 0) == .tap && parsed.mix.kind(at: 2) == .put)
    }

    @Test func helpIsAnAction() throws {
        #expect(try LoadOptions.parse(["--help"]) == .help)
        #expect(try LoadOptions.parse(["fanout", "-h"]) == .help)
    }

    @Test(arguments: ["localhost", "127.0.0.1", "127.1.2.3", "::1"])
    func loopbackHostsAreAccepted(host: String) throws {
        #expect(try options(["--host", host]).host == (host == "localhost" ? "127.0.0.1" : host))
    }

    @Test(arguments: ["10.0.0.1", "192.168.1.2", "example.com", "0.0.0.0", "::", "128.0.0.1", "127.0.0.256"])
    func otherHostsAreRefused(host: String) {
        #expect(throws: LoadOptions.UsageError.self) { try LoadOptions.parse(["--host", host]) }
    }

    @Test(arguments: [
        ["--connections", "0"], ["--connections", "20001"], ["--depth", "0"], ["--depth", "2000"],
        ["--rate", "-1"], ["--duration", "0"], ["--duration", "3601"], ["--duration", "nan"],
        ["--warmup", "601"], ["--timeout", "0"], ["--port", "70000"], ["--max-requests", "0"],
        ["--duration", "3500", "--warmup", "200"], ["--streams-per-connection", "101"],
        ["--mix", "tap=1,jump=2"], ["--mix", "tap=0"], ["--request", ""], ["--connections"],
        ["--bogus"], ["flood"],
    ])
    func outOfBoundsAndUnknownFlagsAreUsageErrors(arguments: [String]) {
        #expect(throws: LoadOptions.UsageError.self) { try LoadOptions.parse(arguments) }
    }
}
