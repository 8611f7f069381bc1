// TypewriterScenario.swift: typewriter streams, each tick against its ideal time.

/// Connection 0 (of each thread) PUTs one long document; every connection then starts
/// `--streams-per-connection` TYPE streams of it at `--interval`, and starts
/// another when one sends `! DONE` while the run goes on.
///
/// A stream's ideal tick times are absolute, as the daemon schedules them:
/// tick k (k = 1, 2, … graphemes revealed) is due k intervals after the
/// stream's start (the first tick comes one interval after the start, as
/// after RESUME). Lateness is arrival − ideal, against two starts:
///
/// - **the daemon's start**: the latest the daemon can have started the
///   stream: the `OK TYPE` reply's arrival, or earlier, the smallest
///   arrival − k × interval of the stream's ticks so far (the daemon never
///   ticks early, so its start is at most that). This is the scheduler's
///   own precision and drift, which the typewriter targets are about; a
///   delay common to all of a stream's ticks shows in the other measure;
/// - **the TYPE's send**: what a reader sees, including the start delay
///   (TYPE sent to `OK TYPE` received), which grows when thousands of
///   streams start in the same instant. Reported too, never hidden.
///
/// Ticks coalesced by the
/// daemon (a reader that fell behind) are ticks not delivered: the share of
/// ticks delivered is received ÷ due, over the ticks due in the measured
/// window; a tick more than `--timeout` late is not delivered.
final class TypewriterScenario: LoadScenario {
    let connectionCount: Int
    private let streamsPerConnection: Int
    private let interval: UInt64
    private let intervalMilliseconds: Int
    /// One document per thread, named by its first connection.
    private let id: String
    private let text: String
    private let timeout: UInt64

    /// One TYPE's reveal, from its send to its DONE (or the end of the run).
    private struct StreamRun {
        let sentAt: UInt64
        /// The daemon's start, as bounded above (see the type's comment).
        var startedAt: UInt64
        /// Graphemes the reveal has to go.
        let steps: Int
        var ticksInWindow = 0
        var lastStep = 0
        var isDone = false
    }

    /// Keyed by connection index × 2^32 + stream number.
    private var streams: [Int: StreamRun] = [:]
    private var finishedRuns: [StreamRun] = []
    private var lateness = LatencyHistogram()
    private var latenessFromSend = LatencyHistogram()
    private var firstTenth = LatencyHistogram()
    private var lastTenth = LatencyHistogram()
    /// TYPE sent to OK TYPE received.
    private var startDelay = LatencyHistogram()
    private var typesStarted = 0

    init(options: LoadOptions, share: LoadShare) {
        connectionCount = share.connections
        id = LecternRequests.documentID("type", share.firstConnection)
        streamsPerConnection = options.streamsPerConnection
        intervalMilliseconds = options.intervalMilliseconds
        interval = UInt64(options.intervalMilliseconds) * MonotonicClock.nanosecondsPerMillisecond
        timeout = MonotonicClock.nanoseconds(seconds: options.timeoutSeconds)
        // Enough text that a stream outlasts the run (plus slack), so ticks are steady.
        let seconds = options.warmupSeconds + options.durationSeconds + 5
        text = SampleText.long(graphemes: Int(seconds * 1000) / options.intervalMilliseconds + 100)
    }

    func setupStage(of index: Int) -> Int { index == 0 ? 0 : 1 }

    func setupRequests(for index: Int) -> [ScenarioRequest] {
        index == 0 ? [LecternRequests.hello(), LecternRequests.put(id, text)] : [LecternRequests.hello()]
    }

    func generatesLoad(_ index: Int) -> Bool { false }

    func nextRequest(for index: Int, intendedAt: UInt64) -> ScenarioRequest { LecternRequests.ping() }

    func loadDidStart(_ runner: LoadRunner) {
        let now = MonotonicClock.now()
        for connection in runner.connections where connection.state == .open {
            for _ in 0..<streamsPerConnection { startStream(on: connection, runner: runner, at: now) }
        }
    }

    private func startStream(on connection: ClientConnection, runner: LoadRunner, at now: UInt64) {
        typesStarted += 1
        runner.sendControl(LecternRequests.type(id, intervalMilliseconds: intervalMilliseconds), on: connection, at: now)
    }

    private static func key(_ connection: ClientConnection, _ stream: Int) -> Int { connection.index << 32 | stream }

    func didComplete(_ request: PendingRequest, reply: ReplyView, on connection: ClientConnection, at now: UInt64, runner: LoadRunner) {
        guard let stream = LineFields.integer("stream", in: reply.finalLine),
            let graphemes = LineFields.integer("graphemes", in: reply.finalLine)
        else {
            runner.countMalformed("TYPE reply without stream= and graphemes=")
            return
        }
        startDelay.record(now - request.intendedAt)
        streams[Self.key(connection, stream)] = StreamRun(sentAt: request.intendedAt, startedAt: now, steps: graphemes)
    }

    func didReceive(event: UnsafeRawBufferPointer, on connection: ClientConnection, at now: UInt64, runner: LoadRunner) {
        let isTick = event.starts(with: Self.tickEvent)
        guard isTick || event.starts(with: Self.doneEvent) else {
            runner.countMalformed("typewriter event '\(String(decoding: event.prefix(100), as: UTF8.self))'")
            return
        }
        guard let stream = LineFields.integer("stream", in: event),
            let graphemes = LineFields.integer("graphemes", in: event),
            var run = streams[Self.key(connection, stream)]
        else {
            runner.countMalformed("event of an unknown stream '\(String(decoding: event.prefix(100), as: UTF8.self))'")
            return
        }
        if isTick {
            record(step: graphemes, of: &run, at: now, runner: runner)
            streams[Self.key(connection, stream)] = run
        } else {
            run.isDone = true
            finishedRuns.append(run)
            streams[Self.key(connection, stream)] = nil
            if runner.isRunning { startStream(on: connection, runner: runner, at: now) }
        }
    }

    private func record(step: Int, of run: inout StreamRun, at now: UInt64, runner: LoadRunner) {
        guard step > run.lastStep else { return }
        run.lastStep = step
        let schedule = UInt64(step) * interval
        run.startedAt = max(run.sentAt, min(run.startedAt, now - min(now, schedule)))
        let late = now - min(now, run.startedAt + schedule)
        // Which ticks are due in the window is decided on the fixed schedule
        // from the send, the same for counting due and delivered ticks.
        let due = run.sentAt + schedule
        guard due >= runner.measureStart && due < runner.measureEnd, now <= due + timeout else { return }
        run.ticksInWindow += 1
        lateness.record(late)
        latenessFromSend.record(now - min(now, due))
        let tenth = (runner.measureEnd - runner.measureStart) / 10
        if due < runner.measureStart + tenth { firstTenth.record(late) }
        if due >= runner.measureEnd - tenth { lastTenth.record(late) }
    }

    private static let tickEvent = Array("! TICK ".utf8)
    private static let doneEvent = Array("! DONE ".utf8)

    var drainNanoseconds: UInt64 { interval + MonotonicClock.nanosecondsPerSecond }

    /// Ticks of a run due (on the schedule from its send) in the measured window.
    private func ticksDue(_ run: StreamRun, runner: LoadRunner) -> Int {
        func step(atOrAfter time: UInt64) -> Int {
            guard time > run.sentAt else { return 1 }
            return Int((time - run.sentAt + interval - 1) / interval)
        }
        let first = max(1, step(atOrAfter: runner.measureStart))
        let last = min(run.steps, step(atOrAfter: runner.measureEnd) - 1)
        return max(0, last - first + 1)
    }

    func finish(runner: LoadRunner) -> ScenarioMetrics? {
        let runs = finishedRuns + streams.values
        let due = runs.reduce(0) { $0 + ticksDue($1, runner: runner) }
        let delivered = runs.reduce(0) { $0 + $1.ticksInWindow }
        return ScenarioMetrics(
            histograms: [
                ("tick lateness against the daemon's start (scheduler precision)", lateness),
                ("tick lateness against the TYPE's send (start delay included)", latenessFromSend),
            ],
            figures: [
                ("streams", .count(Double(streams.count + finishedRuns.count))),
                ("TYPE requests", .count(Double(typesStarted))),
                ("ticks due", .count(Double(due))),
                ("ticks delivered", .count(Double(delivered))),
                ("delivered share", .share(part: Double(delivered), whole: Double(due))),
                ("start delay p50 (ms)", .milliseconds(startDelay, percentile: 50)),
                ("start delay p99 (ms)", .milliseconds(startDelay, percentile: 99)),
                ("start delay max (ms)", .milliseconds(startDelay, percentile: 100)),
                ("p50 lateness first 10% (ms)", .milliseconds(firstTenth, percentile: 50)),
                ("p50 lateness last 10% (ms)", .milliseconds(lastTenth, percentile: 50)),
            ])
    }
}
