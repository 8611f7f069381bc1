// MixScenario.swift: taps mixed with edits and the other view commands.

import LecternRandom

/// Each connection owns a document that it replaces now and then (PUT,
/// alternating between two texts, which re-segments it and re-lays out its
/// view), and otherwise sends TAP, RECTS, CARET, SENTENCES, SELECT and PING
/// in the proportions of `--mix`. Requests after a PUT in the pipeline use
/// the points of the new text, since the daemon answers in order.
final class MixScenario: LoadScenario {
    let connectionCount: Int
    private let width: Double
    /// The kinds in `--mix` order with cumulative weights: a draw below
    /// `upper` (and not below the previous one) is that kind.
    private let kinds: [(upper: Int, kind: MixWeights.Kind)]
    private let totalWeight: UInt64
    private var random = SplitMix64(seed: 0x4C65_6374_6572_6E21)
    /// Every request a connection sends, encoded during its setup.
    private var requests: [ConnectionRequests]
    /// Which text each connection's document holds once its pipeline is through.
    private var currentText: [Int]
    private var cursors: [Int]
    private static let texts = [SampleText.first, SampleText.second]
    /// Sentences and characters both texts have at least.
    private static let sentencesAvailable = 3
    private static let offsetsAvailable = min(SampleText.first.utf8.count, SampleText.second.utf8.count)

    /// Expectations shared by all connections (only the request bytes name the document).
    private let rectsReplies = (0..<sentencesAvailable).map { LecternRequests.rectsReply(sentence: $0) }
    private let caretReplies = (0...offsetsAvailable).map { LecternRequests.caretReply(offset: $0) }
    private let sentencesReply = LecternRequests.sentencesReply(count: sentencesAvailable)

    /// One connection's requests; taps and selects per text (first, second).
    private struct ConnectionRequests {
        var taps: [[ScenarioRequest]] = [[], []]
        var selects: [[ScenarioRequest]] = [[], []]
        var rects: [ScenarioRequest] = []
        var carets: [ScenarioRequest] = []
        var sentences: ScenarioRequest?
        var puts: [ScenarioRequest] = []
    }

    /// The run-wide number of this thread's first connection (documents are named by it).
    private let firstConnection: Int

    init(options: LoadOptions, share: LoadShare) {
        connectionCount = share.connections
        firstConnection = share.firstConnection
        width = options.viewWidth
        var upper = 0
        kinds = MixWeights.Kind.allCases.compactMap { kind in
            let weight = options.mix.weights[kind] ?? 0
            guard weight > 0 else { return nil }
            upper += weight
            return (upper, kind)
        }
        totalWeight = UInt64(options.mix.total)
        requests = Array(repeating: ConnectionRequests(), count: share.connections)
        currentText = Array(repeating: 0, count: share.connections)
        cursors = Array(repeating: 0, count: share.connections)
    }

    private func id(_ index: Int) -> String { LecternRequests.documentID("mix", firstConnection + index) }

    /// PUT the second text, VIEW, LINES; PUT the first, LINES: both texts' points.
    func setupRequests(for index: Int) -> [ScenarioRequest] {
        let id = id(index)
        requests[index].rects = rectsReplies.indices.map { LecternRequests.rects(id, sentence: $0, expecting: rectsReplies[$0]) }
        requests[index].carets = caretReplies.indices.map { LecternRequests.caret(id, offset: $0, expecting: caretReplies[$0]) }
        requests[index].sentences = LecternRequests.sentences(id, count: Self.sentencesAvailable, expecting: sentencesReply)
        requests[index].puts = Self.texts.map { LecternRequests.put(id, $0) }
        var setup = [LecternRequests.hello()]
        for text in [1, 0] {
            setup.append(LecternRequests.put(id, Self.texts[text]))
            if text == 1 { setup.append(LecternRequests.view(id, width: width)) }
            var lines = LecternRequests.lines(id)
            lines.onReply = { [unowned self] reply in
                let points = TapTargets(linesReply: reply, text: Self.texts[text]).points
                requests[index].taps[text] = LecternRequests.taps(id, points)
                requests[index].selects[text] = LecternRequests.selects(id, points)
            }
            setup.append(lines)
        }
        return setup
    }

    /// The kind for a number drawn uniformly from `0..<totalWeight` (as ``MixWeights/kind(at:)``).
    private func kind(at draw: Int) -> MixWeights.Kind {
        for entry in kinds where draw < entry.upper { return entry.kind }
        return .ping
    }

    func nextRequest(for index: Int, intendedAt: UInt64) -> ScenarioRequest {
        let text = currentText[index]
        let kind = kind(at: Int(random.next() % totalWeight))
        cursors[index] &+= 1
        let cursor = cursors[index]
        switch kind {
        case .tap where !requests[index].taps[text].isEmpty:
            return requests[index].taps[text][cursor % requests[index].taps[text].count]
        case .select where !requests[index].selects[text].isEmpty:
            return requests[index].selects[text][cursor % requests[index].selects[text].count]
        case .rects:
            return requests[index].rects[cursor % Self.sentencesAvailable]
        case .caret:
            return requests[index].carets[cursor % (Self.offsetsAvailable + 1)]
        case .sentences:
            return requests[index].sentences ?? LecternRequests.sentences(id(index), count: Self.sentencesAvailable)
        case .put:
            currentText[index] = 1 - text
            return requests[index].puts[1 - text]
        case .ping, .tap, .select:
            return LecternRequests.ping()
        }
    }
}
