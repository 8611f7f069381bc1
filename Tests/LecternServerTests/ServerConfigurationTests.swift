// ServerConfigurationTests.swift: lecternd's flags and environment.

import Testing
import LecternServer

@Suite struct ServerConfigurationTests {
    private func run(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ServerConfiguration? {
        if case .run(let config) = try ServerConfiguration.parse(arguments: arguments, environment: environment) {
            return config
        }
        return nil
    }

    @Test func defaultsAreLoopbackOn7878() throws {
        let config = try #require(try run([]))
        #expect(config.host == "127.0.0.1")
        #expect(config.port == 7878)
    }

    @Test func flagsInBothFormsAndEnvironmentWithFlagsWinning() throws {
        let config = try #require(try run(["--port", "9000", "--max-line-bytes=4096"], ["LECTERN_PORT": "1", "LECTERN_HOST": "::1"]))
        #expect(config.port == 9000)
        #expect(config.host == "::1")
        #expect(config.maximumLineLength == 4096)
    }

    @Test func redisTakesAnAddressAndExcludesTheLocalStores() throws {
        let config = try #require(try run(["--redis", "redis://10.0.0.5:6380/2", "--redis-required", "--node-name", "a-1"]))
        #expect(config.redis == (try RedisAddress(url: "redis://10.0.0.5:6380/2")))
        #expect(config.redis?.host == "10.0.0.5" && config.redis?.port == 6380 && config.redis?.database == 2)
        #expect(config.redisRequired && config.nodeName == "a-1")
        let defaults = try #require(try run([], ["LECTERN_REDIS": "redis://[::1]"]))
        #expect(defaults.redis?.host == "::1" && defaults.redis?.port == 6379 && defaults.redis?.database == 0)
        #expect(defaults.redis?.description == "redis://[::1]:6379")
        #expect(throws: ServerConfiguration.UsageError(description: "--redis keeps documents in Redis; it cannot be combined with --memory")) {
            try run(["--redis", "redis://h", "--memory"])
        }
        #expect(throws: ServerConfiguration.UsageError(description: "--redis keeps documents in Redis; it cannot be combined with --data-dir")) {
            try run(["--redis", "redis://h", "--data-dir", "/tmp/x"])
        }
        #expect(throws: ServerConfiguration.UsageError(description: "--redis-required needs --redis")) { try run(["--redis-required"]) }
        for bad in ["http://h", "redis://", "redis://h:0", "redis://h:port", "redis://h/x", "redis://user:pw@h"] {
            #expect(throws: ServerConfiguration.UsageError.self) { try run(["--redis", bad]) }
        }
        #expect(throws: ServerConfiguration.UsageError(description: "--node-name must be 1 to 32 of A-Z a-z 0-9 _ - ., not 'a b'")) {
            try run(["--redis", "redis://h", "--node-name", "a b"])
        }
    }

    @Test func badInputNamesTheFlag() {
        #expect(throws: ServerConfiguration.UsageError(description: "--port must be a whole number from 0 to 65535, not 'http'")) {
            try run(["--port", "http"])
        }
        #expect(throws: ServerConfiguration.UsageError(description: "unknown flag '--prot' (lecternd --help lists them)")) {
            try run(["--prot", "1"])
        }
        #expect(throws: ServerConfiguration.UsageError(description: "--port needs a value")) { try run(["--port"]) }
        #expect(throws: ServerConfiguration.UsageError.self) { try run([], ["LECTERN_PORT": "-1"]) }
    }

    @Test func helpListsEveryFlagWithItsDefault() throws {
        #expect(try ServerConfiguration.parse(arguments: ["--help"], environment: [:]) == .help)
        let help = ServerConfiguration.helpText()
        for option in ServerConfiguration.options {
            #expect(help.contains(option.flag))
            #expect(help.contains("env \(option.environment)"))
        }
        #expect(help.contains("default 7878"))
    }

    /// `--metrics-port` is off unless given; its host is loopback unless
    /// `--metrics-host` says otherwise; both come from the environment too.
    @Test func metricsPortIsOffByDefaultAndLoopback() throws {
        let defaults = try #require(try run([]))
        #expect(defaults.metricsPort == nil)
        #expect(defaults.metricsHost == "127.0.0.1")
        let flagged = try #require(try run(["--metrics-port", "9478"]))
        #expect(flagged.metricsPort == 9478)
        #expect(flagged.metricsHost == "127.0.0.1")
        let fromEnvironment = try #require(try run(["--metrics-host=::1"], ["LECTERN_METRICS_PORT": "0"]))
        #expect(fromEnvironment.metricsPort == 0)
        #expect(fromEnvironment.metricsHost == "::1")
        #expect(throws: ServerConfiguration.UsageError(description: "--metrics-port must be a whole number from 0 to 65535, not '70000'")) {
            try run(["--metrics-port", "70000"])
        }
        #expect(throws: ServerConfiguration.UsageError(description: "--metrics-host needs an address")) { try run(["--metrics-host="]) }
        let help = ServerConfiguration.helpText()
        #expect(help.contains("--metrics-port PORT"))
        #expect(help.contains("default off, env LECTERN_METRICS_PORT"))
        #expect(help.contains("default 127.0.0.1, env LECTERN_METRICS_HOST"))
    }
}
