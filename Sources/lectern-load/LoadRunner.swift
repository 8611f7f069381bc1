// LoadRunner.swift: one run: connect, set up, load, drain, count.

import CUV
import LecternUV
import Glibc

/// Drives a ``LoadScenario`` on a libuv loop of its own, in phases:
///
/// 1. **connecting**: at most ``connectConcurrency`` dials at a time, each
///    to its node (``NodeAddress``: `--nodes` round-robin, or the one server);
/// 2. **setting up**: each connection's setup requests, stage by stage;
/// 3. **running**, once every thread's runner is set up (``LoadStartBarrier``):
///    `--warmup`, then the measured `--duration`. Closed loop
///    keeps `--depth` load requests outstanding per connection; open loop
///    sends on a fixed schedule (request k at start + k / rate, round-robin
///    over the connections) whatever the replies do, and each latency
///    counts from the scheduled time, so a server that stalls is charged
///    for every request it delayed (no coordinated omission). The schedule
///    is kept by a ``PacerThread``, to the microsecond, without spinning;
/// 4. **draining**: no new load; outstanding replies (and the scenario's
///    events) get `--timeout` to arrive.
///
/// Every request is checked against its ``ReplyExpectation``. The run is
/// bounded by the flags' limits and the setup deadline, whatever the server does.
///
/// With `--threads` N there are N runners, each on its own thread and loop
/// with its ``LoadShare``: its connections, every N-th slot of the open-loop
/// schedule. ``ThreadedLoad`` merges their results.
///
/// Loop thread only.
final class LoadRunner: ConnectionOwner {
    enum Phase: Equatable { case connecting, settingUp(stage: Int), waitingForStart, running, draining, finished }

    let options: LoadOptions
    let scenario: LoadScenario
    let share: LoadShare
    private let startBarrier: LoadStartBarrier
    private var hasArrived = false
    /// The scenario's framing, read once.
    private let framing: ReplyFramer.Framing
    /// The servers connections dial: `--nodes`, or `--host` and `--port`.
    private let addresses: [ServerAddress]
    let loop: UnsafeMutablePointer<uv_loop_t>
    let readBuffer: uv_buf_t
    private(set) var connections: [ClientConnection] = []
    private(set) var statistics = RunStatistics()
    private(set) var phase = Phase.connecting

    /// Start of the load, of the measured window, and its end (ns).
    private(set) var loadStart: UInt64 = 0
    private(set) var measureStart: UInt64 = 0
    private(set) var measureEnd: UInt64 = 0
    private(set) var finishedAt: UInt64 = 0
    private var runStart: UInt64 = 0
    private var setupDeadline: UInt64 = 0
    private var drainDeadline: UInt64 = 0
    private let timeout: UInt64

    /// Dials in flight at most, over all threads.
    static let connectConcurrency = 256
    private let dialLimit: Int
    private let maximumRequests: UInt64
    private var nextToDial = 0
    private var dialsInFlight = 0
    private var setupRemaining = 0
    private var stageCount = 1
    private var generators: [ClientConnection] = []
    private var nextGenerator = 0
    private var outstanding = 0
    private var repliesSeen: UInt64 = 0
    private var flushList: [ClientConnection] = []
    /// The list being flushed (connections queued meanwhile go to ``flushList``).
    private var flushing: [ClientConnection] = []
    /// Open loop: index of the next scheduled request, and ns between two.
    private var scheduleIndex: UInt64 = 0
    private let scheduleInterval: Double
    private var lastProgress: UInt64 = 0
    private var lastProgressReplies: UInt64 = 0
    private let showsProgress: Bool
    private(set) var scenarioMetrics: ScenarioMetrics?
    /// The client's own CPU seconds (the whole process's) at the start of the load and at the end.
    private(set) var cpuAtLoadStart: Double = 0
    private(set) var cpuAtFinish: Double = 0

    private let flushCheck = LoopHandle.allocate(uv_check_t.self)
    private let flushPrepare = LoopHandle.allocate(uv_prepare_t.self)
    private let sweepTimer = LoopHandle.allocate(uv_timer_t.self)
    private let pacerWake = LoopHandle.allocate(uv_async_t.self)
    private let startWake = LoopHandle.allocate(uv_async_t.self)
    private var pacer: PacerThread?
    private let interruptSignal = LoopHandle.allocate(uv_signal_t.self)

    init(options: LoadOptions, scenario: LoadScenario, share: LoadShare, startBarrier: LoadStartBarrier) throws {
        self.options = options
        self.scenario = scenario
        self.share = share
        self.startBarrier = startBarrier
        dialLimit = max(16, Self.connectConcurrency / share.threads)
        maximumRequests = UInt64(share.maximumRequests)
        scheduleIndex = UInt64(share.thread)
        framing = scenario.framing
        let nodes = options.nodes.isEmpty ? [NodeAddress(host: options.host, port: options.port)] : options.nodes
        addresses = try nodes.map { try ServerAddress(host: $0.host, port: $0.port) }
        timeout = MonotonicClock.nanoseconds(seconds: options.timeoutSeconds)
        scheduleInterval = options.rate > 0 ? 1e9 / options.rate : 0
        showsProgress = options.progress && isatty(STDERR_FILENO) == 1 && share.thread == 0
        guard let loop = malloc(MemoryLayout<uv_loop_t>.size)?.bindMemory(to: uv_loop_t.self, capacity: 1) else {
            fatalError("out of memory allocating the loop")
        }
        uv_loop_init(loop)
        self.loop = loop
        guard let bytes = malloc(Self.readBufferSize) else { fatalError("out of memory allocating the read buffer") }
        readBuffer = uv_buf_init(bytes.assumingMemoryBound(to: CChar.self), UInt32(Self.readBufferSize))
    }

    deinit {
        uv_loop_close(loop)
        free(loop)
        free(readBuffer.base)
    }

    private static let readBufferSize = 256 * 1024

    /// Runs to the end and returns when every handle is closed.
    func run() {
        signal(SIGPIPE, SIG_IGN)
        runStart = MonotonicClock.now()
        setupDeadline = runStart + max(timeout, 30 * MonotonicClock.nanosecondsPerSecond)
        startHandles()
        connections = (0..<scenario.connectionCount).map {
            ClientConnection(index: $0, owner: self, loop: loop, framing: scenario.framing)
        }
        stageCount = (connections.map { scenario.setupStage(of: $0.index) }.max() ?? 0) + 1
        dialMore()
        uv_run(loop, UV_RUN_DEFAULT)
    }

    // MARK: Connecting and setting up

    private func dialMore() {
        while dialsInFlight < dialLimit && nextToDial < connections.count {
            dialsInFlight += 1
            nextToDial += 1
            connections[nextToDial - 1].connect(to: address(of: nextToDial - 1))
        }
        if dialsInFlight == 0 && nextToDial == connections.count && phase == .connecting {
            if connections.contains(where: { $0.state == .open }) {
                beginSetup(stage: 0)
            } else {
                finish(now: MonotonicClock.now())  // nothing to load: report the connect errors now
            }
        }
    }

    /// Connection n of the whole run dials node n mod the number of nodes
    /// (see ``NodeAddress``).
    private func address(of index: Int) -> ServerAddress {
        addresses[(share.firstConnection + index) % addresses.count]
    }

    func connectionDidConnect(_ connection: ClientConnection, status: Int32) {
        dialsInFlight -= 1
        if status != 0 {
            statistics.errors.connect += 1
            let node = addresses.count > 1 ? " \(address(of: connection.index).description)" : ""
            statistics.errors.note("connect\(node): \(LoopHandle.errorName(status))")
            connection.close(.finished)
        }
        dialMore()
    }

    private func beginSetup(stage: Int) {
        guard stage < stageCount else {
            arriveForLoad()
            return
        }
        phase = .settingUp(stage: stage)
        setupRemaining = 0
        let now = MonotonicClock.now()
        for connection in connections where connection.state == .open && scenario.setupStage(of: connection.index) == stage {
            let requests = scenario.setupRequests(for: connection.index)
            guard !requests.isEmpty else { continue }
            setupRemaining += 1
            for request in requests {
                connection.send(request.bytes, PendingRequest(
                    intendedAt: now, purpose: .setup, expectation: request.expectation,
                    detail: request.detail, onReply: request.onReply))
            }
        }
        if setupRemaining == 0 { beginSetup(stage: stage + 1) }
    }

    private func setupDidFinish(on connection: ClientConnection) {
        setupRemaining -= 1
        if setupRemaining == 0, case .settingUp(let stage) = phase { beginSetup(stage: stage + 1) }
    }

    // MARK: Load

    /// Set up: waits for the other threads' runners, or starts if they are ready.
    private func arriveForLoad() {
        phase = .waitingForStart
        hasArrived = true
        if let start = startBarrier.arrive(self, wake: startWake) { beginLoad(at: start) }
    }

    /// Woken by the barrier: every thread is set up.
    private func startWhenWoken() {
        guard phase == .waitingForStart, let start = startBarrier.start else { return }
        beginLoad(at: start)
    }

    private func beginLoad(at start: UInt64) {
        phase = .running
        loadStart = start
        measureStart = loadStart + MonotonicClock.nanoseconds(seconds: options.warmupSeconds)
        measureEnd = measureStart + MonotonicClock.nanoseconds(seconds: options.durationSeconds)
        lastProgress = loadStart
        cpuAtLoadStart = Self.processCPUSeconds()
        generators = connections.filter { $0.state == .open && scenario.generatesLoad($0.index) }
        scenario.loadDidStart(self)
        if options.rate > 0 {
            let pacer = PacerThread(wake: pacerWake, start: loadStart, interval: scheduleInterval,
                                    firstSlot: scheduleIndex, slotStride: UInt64(share.threads), end: measureEnd,
                                    minimumWakeInterval: MonotonicClock.nanoseconds(seconds: options.wakeMicroseconds / 1e6))
            self.pacer = pacer
            pacer.run()
        } else {
            for connection in generators {
                for _ in 0..<options.depth where canSend(at: loadStart) {
                    sendLoad(on: connection, intendedAt: loadStart)
                }
            }
        }
    }

    private func canSend(at now: UInt64) -> Bool {
        phase == .running && now < measureEnd && statistics.sent < maximumRequests
    }

    private func sendLoad(on connection: ClientConnection, intendedAt: UInt64) {
        let request = scenario.nextRequest(for: connection.index, intendedAt: intendedAt)
        statistics.sent += 1
        outstanding += 1
        connection.send(request.bytes, PendingRequest(
            intendedAt: intendedAt, purpose: .load, expectation: request.expectation,
            detail: request.detail, onReply: request.onReply))
    }

    /// Sends a scenario's own request (TYPE): counted outstanding, not a load sample.
    func sendControl(_ request: ScenarioRequest, on connection: ClientConnection, at now: UInt64) {
        outstanding += 1
        connection.send(request.bytes, PendingRequest(
            intendedAt: now, purpose: .control, expectation: request.expectation,
            detail: request.detail, onReply: request.onReply))
    }

    /// Whether new scenario work (another TYPE) should still start.
    var isRunning: Bool { phase == .running && MonotonicClock.now() < measureEnd }

    /// Open loop, woken by the pacer: sends every request whose scheduled
    /// time has come.
    private func pace() {
        let now = MonotonicClock.now()
        while phase == .running {
            let intended = loadStart + UInt64(Double(scheduleIndex) * scheduleInterval)
            guard intended <= now, canSend(at: intended), let connection = nextOpenGenerator() else { return }
            statistics.sendLag.record(now - intended)
            sendLoad(on: connection, intendedAt: intended)
            scheduleIndex += UInt64(share.threads)
        }
    }

    private func nextOpenGenerator() -> ClientConnection? {
        for _ in 0..<generators.count {
            let connection = generators[nextGenerator]
            nextGenerator = (nextGenerator + 1) % generators.count
            if connection.state == .open { return connection }
        }
        return nil
    }

    // MARK: Replies and events

    func connection(_ connection: ClientConnection, didReceive reply: ReplyView, for request: PendingRequest, at now: UInt64) {
        repliesSeen += 1
        let outcome = request.expectation.check(reply, framing: framing)
        if request.purpose == .setup {
            guard count(outcome, of: request) else {
                connection.close(.finished)
                return
            }
            request.onReply?(reply.materialized())
            if connection.pending.isEmpty { setupDidFinish(on: connection) }
            return
        }
        outstanding -= 1
        if request.purpose == .load { statistics.loadRepliesChecked += 1 }
        if count(outcome, of: request) {
            if request.purpose == .load && request.intendedAt >= measureStart && request.intendedAt < measureEnd {
                statistics.latency.record(now - request.intendedAt)
                statistics.completed += 1
            }
            request.onReply?(reply.materialized())
            scenario.didComplete(request, reply: reply, on: connection, at: now, runner: self)
        }
        if request.purpose == .load && options.rate == 0 && canSend(at: now) && connection.state == .open {
            sendLoad(on: connection, intendedAt: now)
        }
        if phase == .draining { finishIfDrained(now: now) }
    }

    /// Counts an error outcome; true for a well-formed reply.
    private func count(_ outcome: ReplyExpectation.Outcome, of request: PendingRequest) -> Bool {
        switch outcome {
        case .wellFormed:
            return true
        case .errorReply(let code):
            statistics.errors.errorReply += 1
            statistics.errors.byCode[code, default: 0] += 1
            return false
        case .malformed(let what):
            countMalformed(what)
            return false
        }
    }

    func countMalformed(_ what: String) {
        statistics.errors.malformed += 1
        statistics.errors.note("malformed: \(what)")
    }

    func connection(_ connection: ClientConnection, didReceiveEvent line: UnsafeRawBufferPointer, at now: UInt64) {
        scenario.didReceive(event: line, on: connection, at: now, runner: self)
        if phase == .draining { finishIfDrained(now: now) }
    }

    func connection(_ connection: ClientConnection, didClose reason: ClientConnection.CloseReason) {
        let lost = connection.pending.count - connection.pending.count(of: .setup)
        outstanding -= lost
        if connection.pending.count(of: .setup) > 0, case .settingUp = phase {
            setupDidFinish(on: connection)
        }
        switch reason {
        case .finished:
            break
        case .timedOut:
            statistics.errors.timeout += max(connection.pending.count, 1)
        case .disconnected(let why):
            statistics.errors.disconnect += 1
            statistics.errors.note("disconnect: connection \(number(of: connection)): \(why)")
        case .malformed(let what):
            countMalformed(what)
        }
        if phase == .draining { finishIfDrained(now: MonotonicClock.now()) }
    }

    /// A connection's number in the whole run (its index is within this thread's share).
    private func number(of connection: ClientConnection) -> Int { share.firstConnection + connection.index }

    // MARK: Output

    func connectionNeedsFlush(_ connection: ClientConnection) {
        guard !connection.isQueuedForFlush else { return }
        connection.isQueuedForFlush = true
        flushList.append(connection)
    }

    private func flushAll() {
        guard !flushList.isEmpty else { return }
        // Swapped with a spare list, so neither is copied or reallocated.
        swap(&flushList, &flushing)
        for connection in flushing {
            connection.isQueuedForFlush = false
            connection.flush()
        }
        flushing.removeAll(keepingCapacity: true)
    }

    // MARK: Time: phases, timeouts, progress

    private func startHandles() {
        uv_check_init(loop, flushCheck)
        LoopHandle.bind(flushCheck, to: self)
        uv_check_start(flushCheck) { check in LoopHandle.owner(of: check, as: LoadRunner.self)?.flushAll() }
        // Requests queued by timer and idle callbacks must go out before the
        // loop blocks in poll, not after it wakes.
        uv_prepare_init(loop, flushPrepare)
        LoopHandle.bind(flushPrepare, to: self)
        uv_prepare_start(flushPrepare) { prepare in LoopHandle.owner(of: prepare, as: LoadRunner.self)?.flushAll() }

        uv_timer_init(loop, sweepTimer)
        LoopHandle.bind(sweepTimer, to: self)
        uv_timer_start(sweepTimer, { timer in LoopHandle.owner(of: timer, as: LoadRunner.self)?.sweep() }, 50, 50)

        uv_async_init(loop, startWake) { async in LoopHandle.owner(of: async, as: LoadRunner.self)?.startWhenWoken() }
        LoopHandle.bind(startWake, to: self)

        uv_async_init(loop, pacerWake) { async in LoopHandle.owner(of: async, as: LoadRunner.self)?.pace() }
        LoopHandle.bind(pacerWake, to: self)

        uv_signal_init(loop, interruptSignal)
        LoopHandle.bind(interruptSignal, to: self)
        uv_signal_start(interruptSignal, { signal, _ in
            LoopHandle.owner(of: signal, as: LoadRunner.self)?.interrupt()
        }, SIGINT)
    }

    /// Ctrl-C: stop sending, drain, report what was measured.
    private func interrupt() {
        let now = MonotonicClock.now()
        switch phase {
        case .running:
            measureEnd = max(min(measureEnd, now), measureStart)
            beginDrain(now: now)
        case .draining, .finished:
            finish(now: now)
        case .connecting, .settingUp, .waitingForStart:
            finish(now: now)
        }
    }

    /// Every 50 ms: phase changes, timeouts, the progress line.
    private func sweep() {
        let now = MonotonicClock.now()
        switch phase {
        case .connecting, .settingUp:
            if now > setupDeadline {
                for connection in connections where connection.state == .connecting || !connection.pending.isEmpty {
                    statistics.errors.timeout += 1
                    statistics.errors.note("timeout: connection \(number(of: connection)) not set up in time")
                    connection.close(.finished)
                }
                if phase == .connecting {
                    dialsInFlight = 0
                    nextToDial = connections.count
                    dialMore()
                }
            }
        case .waitingForStart:
            break
        case .running:
            if now >= measureEnd {
                // Requests scheduled before the end whose wake-up has not
                // come yet (see --wake-every) still go out.
                if options.rate > 0 { pace() }
                beginDrain(now: now)
            }
        case .draining:
            finishIfDrained(now: now)
        case .finished:
            return
        }
        expireTimeouts(now: now)
        if showsProgress && now - lastProgress >= 500 * MonotonicClock.nanosecondsPerMillisecond {
            printProgress(now: now)
        }
    }

    private func expireTimeouts(now: UInt64) {
        guard phase == .running || phase == .draining else { return }
        for connection in connections where connection.state == .open {
            if let oldest = connection.pending.first, now > oldest.intendedAt + timeout {
                statistics.errors.note("timeout: connection \(number(of: connection)), \(connection.pending.count) requests unanswered after \(options.timeoutSeconds) s")
                connection.close(.timedOut)
            }
        }
    }

    private func beginDrain(now: UInt64) {
        guard phase == .running else { return }
        phase = .draining
        pacer?.stop()
        drainDeadline = now + max(timeout, scenario.drainNanoseconds)
        finishIfDrained(now: now)
    }

    private func finishIfDrained(now: UInt64) {
        let eventsDone = now >= measureEnd + scenario.drainNanoseconds
        let drained = outstanding <= 0 && eventsDone && !scenario.isAwaitingEvents(runner: self)
        if drained || now >= drainDeadline {
            finish(now: now)
        }
    }

    private func finish(now: UInt64) {
        guard phase != .finished else { return }
        phase = .finished
        finishedAt = now
        cpuAtFinish = Self.processCPUSeconds()
        if measureEnd > now { measureEnd = max(now, measureStart) }
        for connection in connections where connection.state == .open && connection.pending.count > 0 {
            statistics.errors.timeout += connection.pending.count
            statistics.errors.note("timeout: connection \(number(of: connection)), \(connection.pending.count) requests unanswered at the end")
        }
        pacer?.stop()
        // Before its handle closes; an unset-up runner no longer holds the others back.
        startBarrier.leave(self, hasArrived: hasArrived)
        scenarioMetrics = scenario.finish(runner: self)
        for connection in connections { connection.close(.finished) }
        if showsProgress { fputs("\r\u{1B}[K", stderr) }
        for handle in [LoopHandle.base(flushCheck), LoopHandle.base(flushPrepare), LoopHandle.base(sweepTimer),
                       LoopHandle.base(pacerWake), LoopHandle.base(startWake), LoopHandle.base(interruptSignal)] {
            LoopHandle.close(handle)
        }
    }

    private func printProgress(now: UInt64) {
        let elapsed = Double(now - (loadStart == 0 ? runStart : loadStart)) / 1e9
        let seconds = Double(now - lastProgress) / 1e9
        let rate = Double(repliesSeen - lastProgressReplies) / max(seconds, 1e-9)
        lastProgress = now
        lastProgressReplies = repliesSeen
        let open = connections.reduce(0) { $0 + ($1.state == .open ? 1 : 0) }
        let stage: String
        switch phase {
        case .connecting: stage = "connecting"
        case .settingUp: stage = "setting up"
        case .waitingForStart: stage = "waiting for the other threads"
        case .running: stage = now < measureStart ? "warm-up" : "measuring"
        case .draining, .finished: stage = "draining"
        }
        let p99 = Double(statistics.latency.value(atPercentile: 99)) / 1e6
        let thread = share.threads > 1 ? "thread 1 of \(share.threads): " : ""
        let line = thread + "\(stage) \(Format.fixed(elapsed, 1)) s  \(Format.fixed(rate, 0)) replies/s  p99 \(Format.fixed(p99, 3)) ms  errors \(statistics.errors.total)  connections \(open)"
        fputs("\r\u{1B}[K" + line, stderr)
    }

    // MARK: The measured window

    /// Length of the measured window in seconds (shorter if interrupted).
    var measuredSeconds: Double {
        guard measureEnd > measureStart else { return 0 }
        return Double(measureEnd - measureStart) / 1e9
    }

    /// User plus system CPU seconds of this process.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
