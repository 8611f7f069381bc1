// TapScenario.swift: readers tapping their own documents.

/// Each connection PUTs a document of its own, VIEWs it, reads its LINES to
/// find points on letters, then sends TAPs that cycle through those points;
/// every reply must be a hit (three data lines, `OK TAP hit`).
final class TapScenario: LoadScenario {
    let connectionCount: Int
    private let width: Double
    /// Pre-encoded TAP requests per connection, and where each one is in its cycle.
    private var taps: [[ScenarioRequest]]
    private var cursors: [Int]

    init(options: LoadOptions) {
        connectionCount = options.connections
        width = options.viewWidth
        taps = Array(repeating: [], count: options.connections)
        cursors = Array(repeating: 0, count: options.connections)
    }

    func setupRequests(for index: Int) -> [ScenarioRequest] {
        let id = LecternRequests.documentID("tap", index)
        var lines = LecternRequests.lines(id)
        lines.onReply = { [unowned self] reply in
            let targets = TapTargets(linesReply: reply, text: SampleText.first)
            taps[index] = LecternRequests.taps(id, targets.points)
        }
        return [LecternRequests.hello(), LecternRequests.put(id, SampleText.first), LecternRequests.view(id, width: width), lines]
    }

    func nextRequest(for index: Int, intendedAt: UInt64) -> ScenarioRequest {
        let count = taps[index].count
        guard count > 0 else { return LecternRequests.tap(LecternRequests.documentID("tap", index), TapTargets.Point(x: 1, y: 1)) }
        let cursor = cursors[index]
        cursors[index] = cursor + 1 == count ? 0 : cursor + 1
        return taps[index][cursor]
    }
}
