// LoadScenario.swift: what a scenario decides; the runner does the rest.

/// A request a scenario wants sent: its bytes and the reply it must get.
///
/// Requests sent over and over are encoded once; their bytes may be slices
/// of one buffer and their expectation shared, so that sending one copies
/// its bytes and touches nothing else.
struct ScenarioRequest {
    let bytes: ArraySlice<UInt8>
    let expectation: ReplyExpectation
    var detail = 0
    var onReply: ((Reply) -> Void)? = nil
}

/// Figures a scenario measures itself (fan-out, typewriter), printed
/// after the request latency.
///
/// Each figure keeps what it is computed from, so the metrics of several
/// threads merge exactly (``merge(_:)``): counts add, a share adds its
/// numerator and denominator, a percentile merges its histogram.
struct ScenarioMetrics {
    /// Each histogram with what it measures ("TAP send to last watcher's event").
    var histograms: [(title: String, histogram: LatencyHistogram)]
    /// Extra named figures, in order (("ticks delivered", 0.999)).
    var figures: [(name: String, value: Figure)]

    enum Figure {
        /// A count, summed over threads.
        case count(Double)
        /// `part` ÷ `whole` (0 when `whole` is 0).
        case share(part: Double, whole: Double)
        /// A histogram's percentile in milliseconds (100: the maximum).
        case milliseconds(LatencyHistogram, percentile: Double)

        var number: Double {
            switch self {
            case .count(let value): return value
            case .share(let part, let whole): return whole == 0 ? 0 : part / whole
            case .milliseconds(let histogram, let percentile): return Double(histogram.value(atPercentile: percentile)) / 1e6
            }
        }

        func merged(with other: Figure) -> Figure {
            switch (self, other) {
            case (.count(let a), .count(let b)):
                return .count(a + b)
            case (.share(let part, let whole), .share(let otherPart, let otherWhole)):
                return .share(part: part + otherPart, whole: whole + otherWhole)
            case (.milliseconds(var histogram, let percentile), .milliseconds(let other, _)):
                histogram.merge(other)
                return .milliseconds(histogram, percentile: percentile)
            default:
                preconditionFailure("merging figures of different kinds")
            }
        }
    }

    /// Adds another thread's metrics of the same scenario (same histograms
    /// and figures, in the same order).
    mutating func merge(_ other: ScenarioMetrics) {
        precondition(histograms.map(\.title) == other.histograms.map(\.title)
                     && figures.map(\.name) == other.figures.map(\.name), "merging metrics of different scenarios")
        for index in histograms.indices { histograms[index].histogram.merge(other.histograms[index].histogram) }
        for index in figures.indices { figures[index].value = figures[index].value.merged(with: other.figures[index].value) }
    }
}

/// One kind of load. The ``LoadRunner`` opens the connections, runs their
/// setup requests stage by stage, paces or pipelines the load requests,
/// checks every reply against its ``ReplyExpectation`` and counts errors;
/// a scenario says which requests to send and measures what only it knows
/// (events, ticks).
///
/// Loop thread only.
protocol LoadScenario: AnyObject {
    var framing: ReplyFramer.Framing { get }
    var connectionCount: Int { get }
    /// Connections of stage n are set up after all of stage n − 1 (fan-out:
    /// the tapper PUTs the document its watchers then VIEW).
    func setupStage(of index: Int) -> Int
    /// Requests that prepare a connection, sent in order (pipelined).
    func setupRequests(for index: Int) -> [ScenarioRequest]
    /// Whether the connection sends the paced or pipelined load requests.
    func generatesLoad(_ index: Int) -> Bool
    /// The next load request for a connection, scheduled for `intendedAt`.
    func nextRequest(for index: Int, intendedAt: UInt64) -> ScenarioRequest
    /// The load starts now (the typewriter sends its TYPEs here).
    func loadDidStart(_ runner: LoadRunner)
    /// A well-formed reply to a load or control request (read in place:
    /// valid only during the call).
    func didComplete(_ request: PendingRequest, reply: ReplyView, on connection: ClientConnection, at now: UInt64, runner: LoadRunner)
    /// An event line (`! …`), read in place: valid only during the call.
    func didReceive(event: UnsafeRawBufferPointer, on connection: ClientConnection, at now: UInt64, runner: LoadRunner)
    /// How long after the measured window to keep waiting for events at least.
    var drainNanoseconds: UInt64 { get }
    /// Whether events the scenario waits for are still due (the drain goes
    /// on until they come, or `--timeout`).
    func isAwaitingEvents(runner: LoadRunner) -> Bool
    /// The run is over; the scenario's own figures, if it has any.
    func finish(runner: LoadRunner) -> ScenarioMetrics?
}

extension LoadScenario {
    var framing: ReplyFramer.Framing { .lectern }
    func setupStage(of index: Int) -> Int { 0 }
    func setupRequests(for index: Int) -> [ScenarioRequest] { [] }
    func generatesLoad(_ index: Int) -> Bool { true }
    func loadDidStart(_ runner: LoadRunner) {}
    func didComplete(_ request: PendingRequest, reply: ReplyView, on connection: ClientConnection, at now: UInt64, runner: LoadRunner) {}
    func didReceive(event: UnsafeRawBufferPointer, on connection: ClientConnection, at now: UInt64, runner: LoadRunner) {
        runner.countMalformed("unexpected event '\(String(decoding: event.prefix(100), as: UTF8.self))'")
    }
    var drainNanoseconds: UInt64 { 0 }
    func isAwaitingEvents(runner: LoadRunner) -> Bool { false }
    func finish(runner: LoadRunner) -> ScenarioMetrics? { nil }
}
