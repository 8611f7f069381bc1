// MixWeights.swift: how often each request kind appears in the mix scenario.

/// Relative weights of the mix scenario's request kinds (`--mix tap=60,put=5`).
struct MixWeights: Equatable {
    enum Kind: String, CaseIterable {
        case tap, rects, caret, sentences, select, ping, put
    }

    private(set) var weights: [Kind: Int]

    static let standard = MixWeights(weights: [
        .tap: 60, .rects: 10, .caret: 10, .sentences: 5, .select: 5, .ping: 5, .put: 5,
    ])

    var total: Int { weights.values.reduce(0, +) }

    /// Parses `kind=weight,…`; kinds not named get weight 0.
    static func parse(_ text: String) throws -> MixWeights {
        var weights: [Kind: Int] = [:]
        for item in text.split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let kind = Kind(rawValue: String(pair[0])) else {
                throw LoadOptions.UsageError(description: "--mix: '\(item)' is not kind=weight with kind one of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let weight = Int(pair[1]), (0...1_000_000).contains(weight) else {
                throw LoadOptions.UsageError(description: "--mix: weight of \(kind.rawValue) must be a whole number from 0 to 1000000")
            }
            weights[kind] = weight
        }
        let mix = MixWeights(weights: weights)
        guard mix.total > 0 else { throw LoadOptions.UsageError(description: "--mix needs at least one weight above 0") }
        return mix
    }

    /// The kind for a number drawn uniformly from `0..<total`.
    func kind(at draw: Int) -> Kind {
        var remaining = draw
        for kind in Kind.allCases {
            let weight = weights[kind] ?? 0
            if remaining < weight { return kind }
            remaining -= weight
        }
        return .ping
    }
}
