// LoadOptions.swift: lectern-load's flags, their defaults, bounds and help.

/// Everything a run is told on the command line.
///
/// Every run is bounded: in time (`--warmup` + `--duration` ≤ 1 hour, each
/// request's `--timeout`), in requests (`--max-requests`), and in
/// connections; and it only ever talks to a loopback address.
struct LoadOptions: Equatable {
    enum Scenario: String, CaseIterable {
        /// A given request line, one reply line each (any line protocol: Redis `PING`).
        case raw
        /// Readers tapping their own document (PUT, VIEW, then TAPs on text).
        case tap
        /// Taps mixed with PUTs, RECTS, CARET, SENTENCES, SELECT and PING.
        case mix
        /// One tapper, many watchers of the same document.
        case fanout
        /// Redis pub/sub: one publisher, many subscribers of one channel (fan-out's baseline).
        case pubsub
        /// Typewriter streams (TYPE), measuring tick lateness.
        case type
    }

    var scenario: Scenario = .tap
    var host = "127.0.0.1"
    var port: UInt16 = 7878
    /// `--nodes`: the servers connections are spread over, round-robin
    /// (empty: `--host` and `--port` only). When given, `host` and `port`
    /// are its first node.
    var nodes: [NodeAddress] = []
    var connections = 50
    /// Client threads, each with its own libuv loop and share of the connections.
    var threads = 1
    /// Requests kept outstanding per connection in closed loop.
    var depth = 1
    /// Requests (taps for fanout) per second over all connections; 0 is closed loop.
    var rate: Double = 0
    /// Open loop: the pacer wakes the loop at most this often (µs); every
    /// request due by then goes out on that wake-up. 0: at every scheduled time.
    var wakeMicroseconds: Double = 50
    var durationSeconds: Double = 10
    var warmupSeconds: Double = 1
    var timeoutSeconds: Double = 5
    var maximumRequests = 100_000_000
    var json = false
    var progress = true
    // raw
    var requestLine = "PING"
    var expectedPrefix: String?
    // tap, mix, fanout, type
    var viewWidth: Double = 360
    var mix = MixWeights.standard
    // fanout, pubsub
    var watchers = 100
    var views = 10
    // pubsub
    var messageBytes = 200
    // type
    var intervalMilliseconds = 75
    var streamsPerConnection = 1

    enum Action: Equatable {
        case help
        case run(LoadOptions)
    }

    struct UsageError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    static let maximumConnections = 20_000
    static let maximumDepth = 1_024
    static let maximumThreads = 64
    static let maximumSeconds: Double = 3_600

    /// Parses the arguments after the program name: the scenario first, then flags.
    static func parse(_ arguments: [String]) throws -> Action {
        var options = LoadOptions()
        var rest = arguments[...]
        var addressFlag: String?
        if let first = rest.first, !first.hasPrefix("-") {
            guard let scenario = Scenario(rawValue: first) else {
                throw UsageError(description: "unknown scenario '\(first)'; one of \(Scenario.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            options.scenario = scenario
            rest = rest.dropFirst()
        }
        while let flag = rest.popFirst() {
            func value() throws -> String {
                guard let value = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
                return value
            }
            switch flag {
            case "-h", "--help": return .help
            case "--host":
                options.host = try loopbackHost(try value())
                addressFlag = addressFlag ?? flag
            case "--port":
                options.port = try number(flag, try value(), in: 1...65_535).toUInt16
                addressFlag = addressFlag ?? flag
            case "--nodes": options.nodes = try NodeAddress.list(try value())
            case "--connections": options.connections = try number(flag, try value(), in: 1...maximumConnections)
            case "--threads": options.threads = try number(flag, try value(), in: 1...maximumThreads)
            case "--depth": options.depth = try number(flag, try value(), in: 1...maximumDepth)
            case "--rate": options.rate = try decimal(flag, try value(), in: 0...10_000_000)
            case "--wake-every": options.wakeMicroseconds = try decimal(flag, try value(), in: 0...10_000)
            case "--duration": options.durationSeconds = try decimal(flag, try value(), in: 0.1...maximumSeconds)
            case "--warmup": options.warmupSeconds = try decimal(flag, try value(), in: 0...600)
            case "--timeout": options.timeoutSeconds = try decimal(flag, try value(), in: 0.01...600)
            case "--max-requests": options.maximumRequests = try number(flag, try value(), in: 1...1_000_000_000)
            case "--json": options.json = true
            case "--no-progress": options.progress = false
            case "--request": options.requestLine = try requestLine(try value())
            case "--expect": options.expectedPrefix = try value()
            case "--width": options.viewWidth = try decimal(flag, try value(), in: 50...10_000)
            case "--mix": options.mix = try MixWeights.parse(try value())
            case "--watchers": options.watchers = try number(flag, try value(), in: 1...maximumConnections - 1)
            case "--views": options.views = try number(flag, try value(), in: 1...1_000)
            case "--message-bytes": options.messageBytes = try number(flag, try value(), in: PubsubScenario.payloadBytes)
            case "--interval": options.intervalMilliseconds = try number(flag, try value(), in: 1...60_000)
            case "--streams-per-connection": options.streamsPerConnection = try number(flag, try value(), in: 1...100)
            default: throw UsageError(description: "unknown flag '\(flag)' (--help lists them)")
            }
        }
        if let first = options.nodes.first {
            if let addressFlag {
                throw UsageError(description: "\(addressFlag) and --nodes both name the server; give one of them (--nodes HOST:PORT,… for several)")
            }
            options.host = first.host
            options.port = first.port
        }
        if options.warmupSeconds + options.durationSeconds > maximumSeconds {
            throw UsageError(description: "--warmup plus --duration must be at most \(Int(maximumSeconds)) seconds")
        }
        try checkThreads(options)
        return .run(options)
    }

    /// Whether the scenario is one sender and `--watchers` receivers
    /// (fanout, pubsub): its connection count is `--watchers` + 1.
    var isFanout: Bool { scenario == .fanout || scenario == .pubsub }

    /// `--threads` against the scenario: fan-out (and pub/sub) needs its
    /// sender and every receiver on one loop; the others need a connection
    /// per thread.
    private static func checkThreads(_ options: LoadOptions) throws {
        guard options.threads > 1 else { return }
        if options.scenario == .fanout {
            throw UsageError(description: "fanout cannot use --threads \(options.threads): it times each TAP to the last watcher's event, which needs the tapper and all watchers on one loop; use --threads 1")
        }
        if options.scenario == .pubsub {
            throw UsageError(description: "pubsub cannot use --threads \(options.threads): it times each PUBLISH to the last subscriber's message, which needs the publisher and all subscribers on one loop; use --threads 1")
        }
        if options.threads > options.connections {
            throw UsageError(description: "--threads \(options.threads) is more than --connections \(options.connections); each thread needs a connection")
        }
    }

    /// Only loopback addresses: the tool must never load someone else's server.
    static func loopbackHost(_ host: String) throws -> String {
        if host == "localhost" { return "127.0.0.1" }
        if host == "::1" { return host }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts[0] == "127", parts.allSatisfy({ UInt8($0) != nil }) { return host }
        throw UsageError(description: "--host \(host) is not a loopback address (127.0.0.0/8, ::1 or localhost); lectern-load only loads this machine")
    }

    private static func requestLine(_ line: String) throws -> String {
        guard !line.isEmpty, !line.contains("\n"), !line.contains("\r") else {
            throw UsageError(description: "--request must be one non-empty line")
        }
        return line
    }

    private static func number(_ flag: String, _ text: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    private static func decimal(_ flag: String, _ text: String, in range: ClosedRange<Double>) throws -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(description: "\(flag) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    static let helpText = """
    lectern-load: load and latency measurement for lecternd (and any line protocol), loopback only.

    Usage: lectern-load SCENARIO [flags]

    Scenarios:
      tap      each connection PUTs a document, VIEWs it, then TAPs points on its text
      mix      taps mixed with PUT, RECTS, CARET, SENTENCES, SELECT and PING (--mix)
      fanout   one connection taps a shared document, --watchers connections WATCH it;
               measures TAP send to the last watcher's "! TAP" event (with --nodes, the
               tapper is on the first node and the watchers round-robin over all of them)
      pubsub   Redis pub/sub, fanout's baseline: --watchers connections SUBSCRIBE one channel,
               one connection PUBLISHes --message-bytes messages at --rate; measures PUBLISH
               send to the last subscriber's message (RESP; same report as fanout)
      type     typewriter streams (TYPE); measures each tick's lateness against
               start + sum of intervals, and the share of ticks delivered
      raw      sends --request, expects one reply line (Redis: raw --request PING --expect +PONG;
               a Redis bulk string, $N and its N bytes, counts as one reply)

    Flags:
      --host ADDRESS          loopback address of the server (default 127.0.0.1)
      --port PORT             server port (default 7878)
      --nodes HOST:PORT,...   several servers (loopback only, at most 64; one may be named twice),
                              instead of --host and --port: connection n dials node n mod their
                              number, so connections go round-robin over them (fanout: the tapper,
                              connection 0, on the first node; the watchers over all)
      --connections N         connections (default 50, at most 20000)
      --threads N             client threads, each with its own event loop and an even share of the
                              connections (and of --rate and --max-requests); results are merged
                              (default 1, at most 64; fanout and pubsub: 1 only)
      --depth N               closed loop: requests outstanding per connection (default 1: no pipelining)
      --rate R                open loop: R requests (fanout: taps, pubsub: publishes) per second in
                              all, on a fixed schedule; latency counts from the scheduled send time
                              (default 0: closed loop; fanout and pubsub: 100)
      --wake-every MICROS     open loop: wake to send at most every MICROS µs, sending all that is due
                              (a request waits at most that long, and the wait counts in its latency);
                              0 wakes at every scheduled time, costing the client a wake-up per request
                              (default 50)
      --duration SECONDS      measured time (default 10)
      --warmup SECONDS        load before measuring, not counted (default 1)
      --timeout SECONDS       a reply (or event) later than this is a timeout error (default 5)
      --max-requests N        stop sending after N requests (default 100000000)
      --json                  print the result as one JSON object
      --no-progress           no live progress line (it is shown only when stderr is a terminal)
      --request LINE          raw: the request line (default PING)
      --expect PREFIX         raw: a reply must start with PREFIX (default: any non-error line)
      --width POINTS          width of the views (default 360)
      --mix WEIGHTS           mix: e.g. tap=60,rects=10,caret=10,sentences=5,select=5,ping=5,put=5
      --watchers N            fanout: watchers; pubsub: subscribers (default 100)
      --views N               fanout: distinct views among the watchers (default 10)
      --message-bytes N       pubsub: bytes of each message's payload (default 200, about a ! TAP
                              event line; 24 to 65536)
      --interval MS           type: interval between ticks (default 75)
      --streams-per-connection N   type: TYPE streams per connection (default 1, at most 100)
      -h, --help              this text

    Errors are counted by kind: connect, timeout, err (an ERR reply), disconnect,
    malformed (a reply of the wrong shape). The exit status is 0 when there were none,
    1 when there were, 64 for a usage error.

    Client cpu is the whole process's CPU time over the run as a share of one core
    (client_cpu_share in JSON); with --threads above 1 it can exceed 100 % (1.0).

    """
}

private extension Int {
    var toUInt16: UInt16 { UInt16(clamping: self) }
}
