// MixScenario.swift: taps mixed with edits and the other view commands.

/// Each connection owns a document that it replaces now and then (PUT,
/// alternating between two texts, which re-segments it and re-lays out its
/// view), and otherwise sends TAP, RECTS, CARET, SENTENCES, SELECT and PING
/// in the proportions of `--mix`. Requests after a PUT in the pipeline use
/// the points of the new text, since the daemon answers in order.
final class MixScenario: LoadScenario {
    let connectionCount: Int
    private let width: Double
    private let weights: MixWeights
    private var random = SplitMix64(seed: 0x4C65_6374_6572_6E21)
    /// Per text (first, second): pre-encoded taps and selects for each connection.
    private var taps: [[[ScenarioRequest]]]
    private var selects: [[[ScenarioRequest]]]
    /// Which text each connection's document holds once its pipeline is through.
    private var currentText: [Int]
    private var cursors: [Int]
    private static let texts = [SampleText.first, SampleText.second]
    /// Sentences and characters both texts have at least.
    private static let sentencesAvailable = 3
    private static let offsetsAvailable = min(SampleText.first.utf8.count, SampleText.second.utf8.count)

    init(options: LoadOptions) {
        connectionCount = options.connections
        width = options.viewWidth
        weights = options.mix
        taps = Array(repeating: [[], []], count: options.connections)
        selects = taps
        currentText = Array(repeating: 0, count: options.connections)
        cursors = Array(repeating: 0, count: options.connections)
    }

    private func id(_ index: Int) -> String { LecternRequests.documentID("mix", index) }

    /// PUT the second text, VIEW, LINES; PUT the first, LINES: both texts' points.
    func setupRequests(for index: Int) -> [ScenarioRequest] {
        let id = id(index)
        var requests = [LecternRequests.hello()]
        for text in [1, 0] {
            requests.append(LecternRequests.put(id, Self.texts[text]))
            if text == 1 { requests.append(LecternRequests.view(id, width: width)) }
            var lines = LecternRequests.lines(id)
            lines.onReply = { [unowned self] reply in
                let points = TapTargets(linesReply: reply, text: Self.texts[text]).points
                taps[index][text] = LecternRequests.taps(id, points)
                selects[index][text] = LecternRequests.selects(id, points)
            }
            requests.append(lines)
        }
        return requests
    }

    func nextRequest(for index: Int, intendedAt: UInt64) -> ScenarioRequest {
        let id = id(index)
        let text = currentText[index]
        let kind = weights.kind(at: Int(random.next() % UInt64(weights.total)))
        cursors[index] &+= 1
        let cursor = cursors[index]
        switch kind {
        case .tap where !taps[index][text].isEmpty:
            return taps[index][text][cursor % taps[index][text].count]
        case .select where !selects[index][text].isEmpty:
            return selects[index][text][cursor % selects[index][text].count]
        case .rects:
            return LecternRequests.rects(id, sentence: cursor % Self.sentencesAvailable)
        case .caret:
            return LecternRequests.caret(id, offset: cursor % (Self.offsetsAvailable + 1))
        case .sentences:
            return LecternRequests.sentences(id, count: Self.sentencesAvailable)
        case .put:
            currentText[index] = 1 - text
            return LecternRequests.put(id, Self.texts[1 - text])
        case .ping, .tap, .select:
            return LecternRequests.ping()
        }
    }
}
