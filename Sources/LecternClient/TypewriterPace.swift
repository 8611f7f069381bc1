// TypewriterPace.swift: the pace of a typewriter reveal.

/// The pace of a typewriter reveal.
public enum TypewriterPace: Hashable, Sendable {
    /// Milliseconds between graphemes (1 to 60,000).
    case interval(milliseconds: Int)
    /// Graphemes per second.
    case charactersPerSecond(Double)

    var argument: (String, String) {
        switch self {
        case .interval(let milliseconds): return ("interval", String(milliseconds))
        case .charactersPerSecond(let cps): return ("cps", WireValue.number(cps))
        }
    }
}
