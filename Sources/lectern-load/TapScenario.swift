// TapScenario.swift: readers tapping their own documents.

/// Each connection PUTs a document of its own, VIEWs it, reads its LINES to
/// find points on letters, then sends TAPs that cycle through those points;
/// every reply must be a hit (three data lines, `OK TAP hit`).
final class TapScenario: LoadScenario {
    let connectionCount: Int
    private let width: Double
    /// Pre-encoded TAP requests of every connection, one flat table (the
    /// send path then reads two small arrays and one entry).
    private var taps: [ScenarioRequest] = []
    /// Per connection: where its TAPs are in ``taps``, and the next one to send.
    private var cycles: [Range<Int>]
    private var cursors: [Int]
    /// The run-wide number of this thread's first connection (documents are named by it).
    private let firstConnection: Int

    init(options: LoadOptions, share: LoadShare) {
        connectionCount = share.connections
        firstConnection = share.firstConnection
        width = options.viewWidth
        cycles = Array(repeating: 0..<0, count: share.connections)
        cursors = Array(repeating: 0, count: share.connections)
    }

    func setupRequests(for index: Int) -> [ScenarioRequest] {
        let id = LecternRequests.documentID("tap", firstConnection + index)
        var lines = LecternRequests.lines(id)
        lines.onReply = { [unowned self] reply in
            let targets = TapTargets(linesReply: reply, text: SampleText.first)
            cycles[index] = taps.count..<taps.count + targets.points.count
            cursors[index] = taps.count
            taps += LecternRequests.taps(id, targets.points)
        }
        return [LecternRequests.hello(), LecternRequests.put(id, SampleText.first), LecternRequests.view(id, width: width), lines]
    }

    func nextRequest(for index: Int, intendedAt: UInt64) -> ScenarioRequest {
        let cycle = cycles[index]
        guard !cycle.isEmpty else { return LecternRequests.tap(LecternRequests.documentID("tap", firstConnection + index), TapTargets.Point(x: 1, y: 1)) }
        let cursor = cursors[index]
        cursors[index] = cursor + 1 == cycle.upperBound ? cycle.lowerBound : cursor + 1
        return taps[cursor]
    }
}
