// Abuse.swift: issue 16's abuses, each as connections that carry it out.

/// The abuses of issue 16 ("under hostile and heavy use") that another
/// reader must not notice: while one runs, another connection's PINGs are
/// answered, promptly, and each abusing connection is either served or
/// dropped with a logged reason.
enum Abuse: String, CaseIterable, Sendable {
    /// A heredoc of one-byte lines from a connection that has not
    /// authenticated (item 2: quadratic reading, before AUTH).
    case heredocBeforeAuth = "heredoc-before-auth"
    /// The same heredoc, a PUT, after AUTH.
    case heredocAfterAuth = "heredoc-after-auth"
    /// RENDER of a 200 KB document, pipelined, replies never read (item 4).
    case pipelinedRender = "pipelined-render"
    /// SENTENCES of the same document, pipelined, never read (item 4).
    case pipelinedSentences = "pipelined-sentences"
    /// 10 connections × 100 `TYPE interval=1` streams, never read (item 3).
    case typewriterStreams = "typewriter-streams"
    /// 40 watchers with distinct widths on a 1 MB document while one
    /// connection TAPs (item 5: more views than the layout cache).
    case manyViews = "many-views"
    /// Tens of thousands of SELECTs, then SELECTION (item 6).
    case manySelects = "many-selects"
    /// 30 unauthenticated connections each holding an unfinished 15 MiB
    /// RESP bulk string (item 7: memory before AUTH).
    case unauthenticatedBulk = "unauthenticated-bulk"

    /// One line for tables.
    func summary(_ s: AbuseSizes = .issue) -> String {
        switch self {
        case .heredocBeforeAuth: return "heredoc of \(s.heredocBytes >> 20) MiB one-byte lines, before AUTH"
        case .heredocAfterAuth: return "PUT heredoc of \(s.heredocBytes >> 20) MiB one-byte lines, after AUTH"
        case .pipelinedRender: return "\(s.renders) pipelined RENDER of \(s.proseBytes / 1000) KB, unread"
        case .pipelinedSentences: return "\(s.sentencesRequests) pipelined SENTENCES of \(s.proseBytes / 1000) KB, unread"
        case .typewriterStreams: return "\(s.typewriterConnections) × \(s.streamsPerConnection) TYPE interval=1, unread"
        case .manyViews: return "\(s.watchers) watchers' views of \(s.bigBytes / 1_000_000) MB, one TAPping"
        case .manySelects: return "\(s.selects) SELECTs, then SELECTION"
        case .unauthenticatedBulk: return "\(s.bulkConnections) × \(s.bulkBytes >> 20) MiB unfinished RESP bulk, before AUTH"
        }
    }
}

/// How big each abuse is: issue 16's reproductions.
struct AbuseSizes: Sendable {
    var heredocBytes = 1 << 20
    /// The document RENDER, SENTENCES and TYPE use.
    var proseBytes = 200_000
    var renders = 24
    var sentencesRequests = 100
    var typewriterConnections = 10
    var streamsPerConnection = 100
    /// The document the watchers view.
    var bigBytes = 1_000_000
    var watchers = 40
    var tapsPerBatch = 20
    var tapBatches = 200
    var selects = 30_000
    var bulkConnections = 30
    var bulkBytes = 15 << 20

    static let issue = AbuseSizes()

    /// For the fairness tests, which run a debug daemon: the same abuses,
    /// with less of the work whose cost is the same however fair the
    /// daemon is (laying out 40 views, formatting replies), so that the
    /// suite takes a minute or two. Every abuse still crosses the limit
    /// it is about: more views than the layout cache holds, more unread
    /// output than the soft limit, every TYPE at interval=1.
    static let test = AbuseSizes(renders: 12, sentencesRequests: 40, bigBytes: 300_000, tapBatches: 50, selects: 20_000)
}

extension Abuse {
    /// The documents, setup and connections of this abuse.
    func scenario(_ sizes: AbuseSizes = .issue) -> AbuseScenario {
        let s = sizes
        switch self {
        case .heredocBeforeAuth, .heredocAfterAuth:
            let authenticate = self == .heredocAfterAuth
            var heredoc = Array("PUT heredoc <<END\n".utf8)
            heredoc.reserveCapacity(s.heredocBytes + 32)
            for _ in 0..<(s.heredocBytes / 2) {
                heredoc.append(UInt8(ascii: "a"))
                heredoc.append(0x0A)
            }
            heredoc += Array("END\n".utf8)
            return AbuseScenario { target, deadline in
                [try PipelinedAbuser(target, role: "heredoc sender", authenticate: authenticate, payload: heredoc, deadline: deadline)]
            }

        case .pipelinedRender:
            let requests = Array(String(repeating: "RENDER prose\n", count: s.renders).utf8)
            return AbuseScenario(documents: [("prose", AbuseText.prose(bytes: s.proseBytes))]) { target, deadline in
                [try PipelinedAbuser(target, role: "renderer", setup: [("VIEW prose width=600", "OK VIEW")], payload: requests, deadline: deadline)]
            }

        case .pipelinedSentences:
            let requests = Array(String(repeating: "SENTENCES prose\n", count: s.sentencesRequests).utf8)
            return AbuseScenario(documents: [("prose", AbuseText.prose(bytes: s.proseBytes))]) { target, deadline in
                [try PipelinedAbuser(target, role: "sentence reader", payload: requests, deadline: deadline)]
            }

        case .typewriterStreams:
            let requests = Array(String(repeating: "TYPE prose interval=1\n", count: s.streamsPerConnection).utf8)
            return AbuseScenario(documents: [("prose", AbuseText.prose(bytes: s.proseBytes))]) { target, deadline in
                try (0..<s.typewriterConnections).map {
                    try PipelinedAbuser(target, role: "typewriter \($0)", payload: requests, deadline: deadline)
                }
            }

        case .manyViews:
            return AbuseScenario(documents: [("big", AbuseText.prose(bytes: s.bigBytes))]) { target, deadline in
                try (0..<s.watchers).map {
                    try PipelinedAbuser(
                        target, role: "watcher \($0)",
                        setup: [("VIEW big width=\(300 + 7 * $0)", "OK VIEW"), ("WATCH big", "OK WATCH")],
                        payload: [], deadline: deadline)
                }
            } batching: { target, deadline in
                // Its own width, unlike any watcher's; points down the first lines.
                [try BatchingAbuser(
                    target, role: "tapper", setup: [("VIEW big width=1000", "OK VIEW")],
                    batchSize: s.tapsPerBatch, maximumBatches: s.tapBatches, deadline: deadline
                ) { n in "TAP big 30 \(10 + (n * 53) % 4000)" }]
            }

        case .manySelects:
            // A default view with one sentence per 20-point line, so that
            // SELECT k's point is under sentence k. The selector reads its
            // replies, batch by batch, as a client selecting would.
            let batch = 500
            return AbuseScenario(
                documents: [("lines", AbuseText.oneSentencePerLine(count: s.selects))],
                setup: [("VIEW lines width=2000 line-height=20 insets=0 default=yes", " lines=\(s.selects) ")],
                batching: { target, deadline in
                    [try BatchingAbuser(
                        target, role: "selector", setup: [], batchSize: batch, maximumBatches: (s.selects + batch - 1) / batch,
                        stopsAtFinish: false, finalRequest: "SELECTION lines", deadline: deadline
                    ) { n in "SELECT lines 5 \(20 * (n % s.selects) + 10)" }]
                })

        case .unauthenticatedBulk:
            let header = Array("*3\r\n$3\r\nPUT\r\n$4\r\nbulk\r\n$\(s.bulkBytes)\r\n".utf8)
            let held = header + [UInt8](repeating: UInt8(ascii: "x"), count: s.bulkBytes - 16)
            let rest = [UInt8](repeating: UInt8(ascii: "x"), count: 16)
            return AbuseScenario(holders: { target, deadline in
                try (0..<s.bulkConnections).map { try BulkHolder(target, role: "bulk holder \($0)", head: held, tail: rest, deadline: deadline) }
            })
        }
    }
}
