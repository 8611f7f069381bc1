// FanoutScenario.swift: one tapper, many watchers, time to the last watcher.

/// Connection 0 PUTs a shared document, VIEWs it and taps it on the
/// schedule of `--rate`; the `--watchers` other connections VIEW it in one
/// of `--views` distinct widths and WATCH it. For each TAP the scenario
/// measures the time from its (scheduled) send to the moment the last
/// watcher has its `! TAP` event, which must carry rects in the watcher's
/// view.
///
/// Events on a connection come in the order of the taps that caused them,
/// so a watcher's n-th `! TAP` event belongs to the n-th TAP.
///
/// With `--nodes` the tapper (connection 0) is on the first node and the
/// watchers go round-robin over all of them (``NodeAddress``): nodes that
/// share their documents (lecternd `--redis`) each turn the tapper's TAP
/// into their own watchers' events. The watchers are set up in a later
/// stage than the tapper, so a watcher on another node VIEWs the document
/// only once its PUT has been acknowledged.
final class FanoutScenario: LoadScenario {
    let connectionCount: Int
    private let width: Double
    private let viewCount: Int
    /// `--nodes` given: how many (reported as a figure); 0 without it.
    private let nodeCount: Int
    private let id = LecternRequests.documentID("fanout", 0)
    private var taps: [ScenarioRequest] = []
    /// Per TAP sent: its scheduled time and how many watchers still lack its event.
    private var tapTimes: [UInt64] = []
    private var waiting: [Int] = []
    /// Per connection: `! TAP` events received.
    private var eventsReceived: [Int]
    private var watchersReady = 0
    private var histogram = LatencyHistogram()
    private var eventsDelivered = 0
    /// TAPs some watcher has not yet had the event of.
    private var incompleteTaps = 0

    /// One thread only (``LoadOptions`` refuses `--threads` above 1): the
    /// tapper and its watchers must share a loop.
    init(options: LoadOptions, share: LoadShare) {
        precondition(share.threads == 1, "fanout runs on one thread")
        connectionCount = options.watchers + 1
        width = options.viewWidth
        viewCount = options.views
        nodeCount = options.nodes.count
        eventsReceived = Array(repeating: 0, count: options.watchers + 1)
    }

    func setupStage(of index: Int) -> Int { index == 0 ? 0 : 1 }

    func setupRequests(for index: Int) -> [ScenarioRequest] {
        guard index > 0 else {
            var lines = LecternRequests.lines(id)
            lines.onReply = { [unowned self] reply in
                taps = LecternRequests.taps(id, TapTargets(linesReply: reply, text: SampleText.first).points)
            }
            return [LecternRequests.hello(), LecternRequests.put(id, SampleText.first), LecternRequests.view(id, width: width), lines]
        }
        // Distinct views: widths a few points apart, so each lays out alike but is its own view.
        let viewWidth = width + Double((index - 1) % viewCount) * 4
        var watch = LecternRequests.watch(id)
        watch.onReply = { [unowned self] _ in watchersReady += 1 }
        return [LecternRequests.hello(), LecternRequests.view(id, width: viewWidth), watch]
    }

    func generatesLoad(_ index: Int) -> Bool { index == 0 }

    func nextRequest(for index: Int, intendedAt: UInt64) -> ScenarioRequest {
        let number = tapTimes.count
        tapTimes.append(intendedAt)
        waiting.append(watchersReady)
        if watchersReady > 0 { incompleteTaps += 1 }
        guard !taps.isEmpty else { return LecternRequests.tap(id, TapTargets.Point(x: 1, y: 1)) }
        var request = taps[number % taps.count]
        request.detail = number
        return request
    }

    func didReceive(event: UnsafeRawBufferPointer, on connection: ClientConnection, at now: UInt64, runner: LoadRunner) {
        guard event.starts(with: Self.tapEvent), LineFields.value("rects", in: event) != nil else {
            runner.countMalformed("watcher event '\(String(decoding: event.prefix(100), as: UTF8.self))'")
            return
        }
        let number = eventsReceived[connection.index]
        eventsReceived[connection.index] += 1
        guard number < waiting.count else {
            runner.countMalformed("a ! TAP event for a tap that was not sent")
            return
        }
        waiting[number] -= 1
        let scheduled = tapTimes[number]
        let measured = scheduled >= runner.measureStart && scheduled < runner.measureEnd
        if measured { eventsDelivered += 1 }
        if waiting[number] == 0 {
            incompleteTaps -= 1
            if measured { histogram.record(now - scheduled) }
        }
    }

    private static let tapEvent = Array("! TAP ".utf8)

    func isAwaitingEvents(runner: LoadRunner) -> Bool { incompleteTaps > 0 }

    func finish(runner: LoadRunner) -> ScenarioMetrics? {
        let measured = tapTimes.filter { $0 >= runner.measureStart && $0 < runner.measureEnd }.count
        let expectedEvents = measured * watchersReady
        let nodes: [(name: String, value: ScenarioMetrics.Figure)] = nodeCount > 0 ? [("nodes", .count(Double(nodeCount)))] : []
        return ScenarioMetrics(
            histograms: [("TAP send to the last watcher's ! TAP event", histogram)],
            figures: nodes + [
                ("watchers", .count(Double(watchersReady))),
                ("distinct views", .count(Double(min(viewCount, watchersReady)))),
                ("taps measured", .count(Double(measured))),
                ("taps reaching every watcher", .count(Double(histogram.count))),
                ("events delivered share", .share(part: Double(eventsDelivered), whole: Double(expectedEvents))),
            ])
    }
}
