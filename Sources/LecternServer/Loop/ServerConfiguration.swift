// ServerConfiguration.swift: lecternd's settings, from flags and environment.

/// Everything `lecternd` can be told at start-up, with its defaults.
///
/// Each setting has one flag (`--port 7878` or `--port=7878`) and one
/// environment variable (`LECTERN_PORT`); a flag wins over the environment,
/// which wins over the default. The table ``options`` drives parsing, the
/// `--help` text and the documentation, so they cannot disagree.
public struct ServerConfiguration: Equatable, Sendable {
    /// Address to listen on. Loopback by default: Lectern is not meant to be
    /// reachable from other machines unless someone decides so.
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free port (the log line says which).
    public var port = 7878
    /// Longest request line accepted, in bytes. A longer line gets
    /// `ERR TOOLONG` and the connection is closed: it has lost sync.
    public var maximumLineLength = 1 << 20
    /// Where the embedded SQLite store keeps documents.
    public var dataDirectory = "./var"
    /// Keep documents in memory only: nothing on disk, nothing survives a restart.
    public var inMemory = false
    /// Keep documents in Redis, shared with every node given the same
    /// address (see PROTOCOL.md, "Storage"); nil: the embedded SQLite store.
    public var redis: RedisAddress?
    /// File holding the password Redis asks for (AUTH), one line.
    public var redisPasswordFile: String?
    /// With ``redis``: exit at start-up when Redis cannot be reached,
    /// instead of serving and retrying in the background.
    public var redisRequired = false
    /// This node's name in the events it publishes (`node=`); nil: made
    /// up at start-up (the `store` log line says which).
    public var nodeName: String?
    /// File holding the token clients must send with AUTH (or set
    /// LECTERN_AUTH_TOKEN); none: no authentication.
    public var authTokenFile: String?
    /// Largest literal or heredoc payload (a document's text), in bytes.
    public var maximumPayloadLength = 16 << 20
    /// Seconds without a request after which a connection that watches
    /// nothing and streams nothing is closed; 0 never closes.
    public var idleTimeoutSeconds = 900
    /// Also listen on this Unix-domain socket (created with mode 0600).
    public var unixSocketPath: String?
    /// Documents held at once; PUT of a new one past this gets `ERR TOOMANY`.
    public var maximumDocuments = 100_000
    /// Connections served at once; the next one gets `ERR MAXCLIENTS` and is closed.
    public var maximumConnections = 10_000
    /// With a token required: connections that have not authenticated yet,
    /// held at once; the next one gets `ERR MAXCLIENTS` and is closed.
    public var maximumUnauthenticatedConnections = 128
    /// With a token required: seconds a connection has to authenticate
    /// before it is closed with `ERR NOAUTH`; 0 never closes.
    public var authTimeoutSeconds = 30
    /// Bytes of replies and events a connection may have waiting to be
    /// sent before the daemon closes it: a client that never reads must not
    /// grow the daemon without bound.
    public var outputHardLimit = 64 << 20
    /// Unsent output above which a connection's stream ticks are coalesced
    /// (the newest replaces the held one) instead of queued, and queued
    /// unsent output above which it is not read and its requests wait.
    public var outputSoftLimit = 16 << 10
    /// Requests one connection may run per loop turn before the others get
    /// theirs; the rest wait for the next turn. Above a pipelining
    /// client's usual depth (16), so that it never waits.
    public var requestsPerTurn = 64
    /// Reply bytes one connection may produce per loop turn before the
    /// others get theirs (a reply is never split: the budget is checked
    /// between requests).
    public var outputBytesPerTurn = 64 << 10
    /// Log level: debug, info, warn or error.
    public var logLevel = Log.Level.info
    /// Serve the STATS figures in Prometheus text format at
    /// `http://<metricsHost>:<port>/metrics`; nil: no metrics endpoint.
    /// 0 picks a free port (the `metrics_listening` log line says which).
    public var metricsPort: Int?
    /// Address of the metrics endpoint. Loopback by default, like ``host``.
    public var metricsHost = "127.0.0.1"

    public init() {}

    /// One setting: its flag, environment variable, value name, help text,
    /// and how to apply a value to a configuration.
    public struct Option: Sendable {
        public let flag: String
        public let environment: String
        /// Empty for a switch (a flag without a value, like `--memory`).
        public let valueName: String
        public let help: String
        let defaultValue: @Sendable (ServerConfiguration) -> String
        let apply: @Sendable (inout ServerConfiguration, String) throws -> Void
    }

    /// A flag or value that cannot be used, with a sentence saying why.
    public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// What the command line asked for.
    public enum Action: Equatable, Sendable {
        case run(ServerConfiguration)
        case help
        case version
    }

    public static let options: [Option] = [
        Option(
            flag: "--host", environment: "LECTERN_HOST", valueName: "ADDRESS",
            help: "IPv4 or IPv6 address to listen on",
            defaultValue: { $0.host },
            apply: { config, value in
                guard !value.isEmpty else { throw UsageError(description: "--host needs an address") }
                config.host = value
            }),
        .wholeNumber(
            flag: "--port", environment: "LECTERN_PORT", valueName: "PORT",
            help: "TCP port to listen on (0 picks a free one)",
            \.port, in: 0...65535),
        .wholeNumber(
            flag: "--max-line-bytes", environment: "LECTERN_MAX_LINE_BYTES", valueName: "BYTES",
            help: "longest request line; longer lines get ERR TOOLONG and a close",
            \.maximumLineLength, in: 64...(1 << 30)),
        Option(
            flag: "--data-dir", environment: "LECTERN_DATA_DIR", valueName: "PATH",
            help: "directory of the embedded SQLite store (created if missing; one daemon each)",
            defaultValue: { $0.dataDirectory },
            apply: { config, value in
                guard !value.isEmpty else { throw UsageError(description: "--data-dir needs a path") }
                config.dataDirectory = value
            }),
        .switch(
            flag: "--memory", environment: "LECTERN_MEMORY",
            help: "keep documents in memory only; nothing is written to disk",
            \.inMemory),
        Option(
            flag: "--redis", environment: "LECTERN_REDIS", valueName: "URL",
            help: "keep documents in Redis at redis://HOST:PORT[/DB], shared with other nodes (no --memory, no --data-dir)",
            defaultValue: { $0.redis?.description ?? "none" },
            apply: { config, value in config.redis = try RedisAddress(url: value) }),
        .path(
            flag: "--redis-password-file", environment: "LECTERN_REDIS_PASSWORD_FILE",
            help: "with --redis: the password Redis requires (AUTH), one line in this file",
            \.redisPasswordFile),
        .switch(
            flag: "--redis-required", environment: "LECTERN_REDIS_REQUIRED",
            help: "with --redis: exit 1 if Redis cannot be reached at start-up (else serve and retry)",
            \.redisRequired),
        Option(
            flag: "--node-name", environment: "LECTERN_NODE_NAME", valueName: "NAME",
            help: "with --redis: this node's name in events (node=); 1 to 32 of A-Z a-z 0-9 _ - .",
            defaultValue: { $0.nodeName ?? "random" },
            apply: { config, value in
                let allowed = value.utf8.allSatisfy { byte in
                    (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
                        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                }
                guard (1...32).contains(value.utf8.count), allowed else {
                    throw UsageError(description: "--node-name must be 1 to 32 of A-Z a-z 0-9 _ - ., not '\(value)'")
                }
                config.nodeName = value
            }),
        .path(
            flag: "--auth-token-file", environment: "LECTERN_AUTH_TOKEN_FILE",
            help: "require AUTH with the token in this file (mode 0600, one line) or LECTERN_AUTH_TOKEN",
            \.authTokenFile),
        .path(
            flag: "--unix-socket", environment: "LECTERN_UNIX_SOCKET",
            help: "also listen on this Unix socket (mode 0600; never taken from a live daemon)",
            \.unixSocketPath),
        .wholeNumber(
            flag: "--max-payload-bytes", environment: "LECTERN_MAX_PAYLOAD_BYTES", valueName: "BYTES",
            help: "largest literal or heredoc payload; larger ones get ERR PAYLOAD",
            \.maximumPayloadLength, in: 1...(1 << 30)),
        .wholeNumber(
            flag: "--idle-timeout", environment: "LECTERN_IDLE_TIMEOUT", valueName: "SECONDS",
            help: "close connections idle this long that watch and stream nothing (0: never)",
            \.idleTimeoutSeconds, in: 0...(365 * 86400)),
        .wholeNumber(
            flag: "--max-connections", environment: "LECTERN_MAX_CONNECTIONS", valueName: "N",
            help: "connections served at once; more get ERR MAXCLIENTS",
            \.maximumConnections, in: 1...1_000_000),
        .wholeNumber(
            flag: "--max-unauthenticated", environment: "LECTERN_MAX_UNAUTHENTICATED", valueName: "N",
            help: "with a token, connections not yet authenticated; more get ERR MAXCLIENTS",
            \.maximumUnauthenticatedConnections, in: 1...1_000_000),
        .wholeNumber(
            flag: "--auth-timeout", environment: "LECTERN_AUTH_TIMEOUT", valueName: "SECONDS",
            help: "with a token, seconds a connection has to AUTH before it is closed (0: never)",
            \.authTimeoutSeconds, in: 0...86_400),
        .wholeNumber(
            flag: "--max-documents", environment: "LECTERN_MAX_DOCUMENTS", valueName: "N",
            help: "documents held at once; more get ERR TOOMANY",
            \.maximumDocuments, in: 1...100_000_000),
        .wholeNumber(
            flag: "--output-hard-limit", environment: "LECTERN_OUTPUT_HARD_LIMIT", valueName: "BYTES",
            help: "unsent output that makes the daemon close a connection",
            \.outputHardLimit, in: 1024...(1 << 40)),
        .wholeNumber(
            flag: "--output-soft-limit", environment: "LECTERN_OUTPUT_SOFT_LIMIT", valueName: "BYTES",
            help: "unsent output above which stream ticks coalesce and the connection is paused",
            \.outputSoftLimit, in: 0...(1 << 40)),
        .wholeNumber(
            flag: "--turn-requests", environment: "LECTERN_TURN_REQUESTS", valueName: "N",
            help: "requests a connection runs per loop turn before others get theirs",
            \.requestsPerTurn, in: 1...1_000_000),
        .wholeNumber(
            flag: "--turn-output-bytes", environment: "LECTERN_TURN_OUTPUT_BYTES", valueName: "BYTES",
            help: "reply bytes a connection makes per loop turn before others get theirs",
            \.outputBytesPerTurn, in: 1...(1 << 40)),
        Option(
            flag: "--metrics-port", environment: "LECTERN_METRICS_PORT", valueName: "PORT",
            help: "serve the STATS figures for Prometheus at GET /metrics on this port (0 picks one)",
            defaultValue: { $0.metricsPort.map(String.init) ?? "off" },
            apply: { config, value in
                config.metricsPort = try ServerConfiguration.integer(value, flag: "--metrics-port", in: 0...65535)
            }),
        Option(
            flag: "--metrics-host", environment: "LECTERN_METRICS_HOST", valueName: "ADDRESS",
            help: "IPv4 or IPv6 address of the metrics endpoint",
            defaultValue: { $0.metricsHost },
            apply: { config, value in
                guard !value.isEmpty else { throw UsageError(description: "--metrics-host needs an address") }
                config.metricsHost = value
            }),
        Option(
            flag: "--log-level", environment: "LECTERN_LOG_LEVEL", valueName: "LEVEL",
            help: "debug, info, warn or error",
            defaultValue: { $0.logLevel.name },
            apply: { config, value in
                guard let level = [Log.Level.debug, .info, .warning, .error].first(where: { $0.name == value })
                else { throw UsageError(description: "--log-level must be debug, info, warn or error, not '\(value)'") }
                config.logLevel = level
            }),
    ]

    /// Reads `arguments` (without the program name) over `environment`.
    ///
    /// - Throws: ``UsageError`` naming the flag or variable at fault.
    public static func parse(arguments: [String], environment: [String: String]) throws -> Action {
        var config = ServerConfiguration()
        for option in options {
            if let value = environment[option.environment] {
                do { try option.apply(&config, value) } catch let error as UsageError {
                    throw UsageError(description: "\(option.environment): \(error.description)")
                }
            }
        }
        var explicit: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "-h", "--help": return .help
            case "--version": return .version
            default: break
            }
            let name: String
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            guard let option = options.first(where: { $0.flag == name }) else {
                throw UsageError(description: "unknown flag '\(argument)' (lecternd --help lists them)")
            }
            if value == nil && option.valueName.isEmpty {
                value = ""
            } else if value == nil {
                guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
                value = arguments[index]
                index += 1
            }
            try option.apply(&config, value ?? "")
            explicit.insert(option.flag)
        }
        if config.redis != nil {
            // Documents live in one place: two stores would disagree.
            if config.inMemory { throw UsageError(description: "--redis keeps documents in Redis; it cannot be combined with --memory") }
            if explicit.contains("--data-dir") || environment["LECTERN_DATA_DIR"] != nil {
                throw UsageError(description: "--redis keeps documents in Redis; it cannot be combined with --data-dir")
            }
        } else {
            for flag in ["--redis-password-file", "--redis-required", "--node-name"] where explicit.contains(flag) {
                throw UsageError(description: "\(flag) needs --redis")
            }
        }
        return .run(config)
    }

    /// The `--help` text: every flag with its environment variable and default.
    public static func helpText() -> String {
        let defaults = ServerConfiguration()
        var text = """
            lecternd: the Lectern sentence-highlighting reader daemon.

            Usage: lecternd [flags]

            Each flag can also be set by the environment variable shown; a flag
            wins over the environment.

            Flags:

            """
        let rows = options.map { ($0.valueName.isEmpty ? $0.flag : "\($0.flag) \($0.valueName)", $0) }
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        for (left, option) in rows {
            let padding = String(repeating: " ", count: width - left.count)
            text += "  \(left)\(padding)\(option.help)\n"
            text += "  \(String(repeating: " ", count: width))default \(option.defaultValue(defaults)), env \(option.environment)\n"
        }
        text += "  -h, --help\(String(repeating: " ", count: width - 10))this text\n"
        text += "  --version\(String(repeating: " ", count: width - 9))print the version and exit\n"
        return text
    }

    /// A switch's value: none (the flag alone), or 1/0 and their spellings
    /// (from the environment).
    static func switchValue(_ value: String, flag: String) throws -> Bool {
        switch value.lowercased() {
        case "", "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default:
            let variable = "LECTERN_" + String(flag.dropFirst(2).uppercased().map { $0 == "-" ? "_" : $0 })
            throw UsageError(description: "\(flag) takes no value (\(variable)=1 or 0)")
        }
    }

    fileprivate static func integer(_ text: String, flag: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }
}

extension ServerConfiguration.Option {
    /// A switch (a flag without a value; 1/0 and their spellings from the
    /// environment), shown as on or off.
    static func `switch`(
        flag: String, environment: String, help: String, _ setting: WritableKeyPath<ServerConfiguration, Bool> & Sendable
    ) -> Self {
        Self(
            flag: flag, environment: environment, valueName: "", help: help,
            defaultValue: { $0[keyPath: setting] ? "on" : "off" },
            apply: { config, value in config[keyPath: setting] = try ServerConfiguration.switchValue(value, flag: flag) })
    }

    /// A file's path, none by default; an empty one is a usage error.
    static func path(
        flag: String, environment: String, help: String, _ setting: WritableKeyPath<ServerConfiguration, String?> & Sendable
    ) -> Self {
        Self(
            flag: flag, environment: environment, valueName: "PATH", help: help,
            defaultValue: { $0[keyPath: setting] ?? "none" },
            apply: { config, value in
                guard !value.isEmpty else { throw ServerConfiguration.UsageError(description: "\(flag) needs a path") }
                config[keyPath: setting] = value
            })
    }

    /// A setting that is a whole number in `range`: its default is the
    /// setting's, and a value outside the range is a ``ServerConfiguration/UsageError``
    /// that names the flag and the range.
    static func wholeNumber(
        flag: String, environment: String, valueName: String, help: String,
        _ setting: WritableKeyPath<ServerConfiguration, Int> & Sendable, in range: ClosedRange<Int>
    ) -> Self {
        Self(
            flag: flag, environment: environment, valueName: valueName, help: help,
            defaultValue: { String($0[keyPath: setting]) },
            apply: { config, value in config[keyPath: setting] = try ServerConfiguration.integer(value, flag: flag, in: range) })
    }
}
