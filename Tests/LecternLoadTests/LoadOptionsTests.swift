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
        #expect(defaults.connections == 50 && defaults.depth == 1 && defaults.rate == 0 && defaults.threads == 1)
        #expect(defaults.durationSeconds == 10 && defaults.warmupSeconds == 1)
        #expect(defaults.wakeMicroseconds == 50)
        #expect(!defaults.json)
    }

    @Test func parsesEveryFlag() throws {
        let parsed = try options([
            "raw", "--host", "127.0.0.2", "--port", "6379", "--connections", "500", "--threads", "8", "--depth", "16",
            "--rate", "25000.5", "--wake-every", "200", "--duration", "30", "--warmup", "2", "--timeout", "1.5",
            "--max-requests", "1000", "--json", "--no-progress", "--request", "PING", "--expect", "+PONG",
            "--width", "400", "--watchers", "999", "--views", "10", "--interval", "75",
            "--streams-per-connection", "4", "--mix", "tap=1,put=2",
        ])
        #expect(parsed.scenario == .raw)
        #expect(parsed.host == "127.0.0.2" && parsed.port == 6379)
        #expect(parsed.connections == 500 && parsed.threads == 8 && parsed.depth == 16 && parsed.rate == 25000.5)
        #expect(parsed.wakeMicroseconds == 200)
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
        ["--bogus"], ["flood"], ["--threads", "0"], ["--threads", "65"], ["--threads", "two"],
        ["--threads", "4", "--connections", "3"], ["--wake-every", "-1"], ["--wake-every", "10001"],
        ["--wake-every", "soon"],
    ])
    func outOfBoundsAndUnknownFlagsAreUsageErrors(arguments: [String]) {
        #expect(throws: LoadOptions.UsageError.self) { try LoadOptions.parse(arguments) }
    }

    @Test func fanoutRefusesThreadsAndSaysWhy() throws {
        #expect(try options(["fanout", "--threads", "1"]).threads == 1)
        do {
            _ = try LoadOptions.parse(["fanout", "--threads", "2"])
            Issue.record("fanout accepted --threads 2")
        } catch let error as LoadOptions.UsageError {
            #expect(error.description.contains("one loop"), "\(error)")
        }
    }

    @Test func nodesAreLoopbackOnlyAndReplaceHostAndPort() throws {
        let parsed = try options(["fanout", "--nodes", "127.0.0.1:7001,localhost:7002,[::1]:7003,127.0.0.1:7001"])
        #expect(parsed.nodes == [
            NodeAddress(host: "127.0.0.1", port: 7001), NodeAddress(host: "127.0.0.1", port: 7002),
            NodeAddress(host: "::1", port: 7003), NodeAddress(host: "127.0.0.1", port: 7001),
        ])
        #expect(parsed.host == "127.0.0.1" && parsed.port == 7001, "the first node is the host and port")
        #expect(parsed.nodes.map(\.description) == ["127.0.0.1:7001", "127.0.0.1:7002", "[::1]:7003", "127.0.0.1:7001"])
        #expect(try options([]).nodes.isEmpty)
        for bad in ["10.0.0.1:7001", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", "127.0.0.1:7001,", "", "example.com:80"] {
            #expect(throws: LoadOptions.UsageError.self, "\(bad)") { try LoadOptions.parse(["--nodes", bad]) }
        }
        let tooMany = Array(repeating: "127.0.0.1:7001", count: NodeAddress.maximumNodes + 1).joined(separator: ",")
        #expect(throws: LoadOptions.UsageError.self) { try LoadOptions.parse(["--nodes", tooMany]) }
        for both in [["--port", "7001", "--nodes", "127.0.0.1:7002"], ["--nodes", "127.0.0.1:7002", "--host", "127.0.0.2"]] {
            #expect(throws: LoadOptions.UsageError.self, "\(both)") { try LoadOptions.parse(both) }
        }
    }

    @Test func pubsubTakesMessageBytesAndOneThread() throws {
        let parsed = try options(["pubsub", "--watchers", "1000", "--message-bytes", "512"])
        #expect(parsed.scenario == .pubsub && parsed.watchers == 1000 && parsed.messageBytes == 512)
        #expect(try options(["pubsub"]).messageBytes == 200)
        for bad in ["23", "65537", "big"] {
            #expect(throws: LoadOptions.UsageError.self) { try LoadOptions.parse(["pubsub", "--message-bytes", bad]) }
        }
        do {
            _ = try LoadOptions.parse(["pubsub", "--threads", "2", "--connections", "2"])
            Issue.record("pubsub accepted --threads 2")
        } catch let error as LoadOptions.UsageError {
            #expect(error.description.contains("one loop"), "\(error)")
        }
    }

    @Test func sharesSplitConnectionsAndRequestsEvenlyAndAddUp() throws {
        let parsed = try options(["--connections", "10", "--threads", "4", "--max-requests", "7"])
        let shares = LoadShare.split(parsed)
        #expect(shares.map(\.connections) == [3, 3, 2, 2])
        #expect(shares.map(\.firstConnection) == [0, 3, 6, 8])
        #expect(shares.map(\.maximumRequests) == [2, 2, 2, 1])
        #expect(shares.map(\.thread) == [0, 1, 2, 3] && shares.allSatisfy { $0.threads == 4 })
        #expect(LoadShare.split(try options([])) == [LoadShare.whole(try options([]))])
    }
}
