// LineHeight.swift: a view's line height.

/// A view's line height.
public enum LineHeight: Hashable, Sendable {
    /// The font's own line height (`auto`).
    case automatic
    /// A multiple of the font size (`1.5x`).
    case multiple(Double)
    /// Points (`24`).
    case points(Double)

    var wire: String {
        switch self {
        case .automatic: return "auto"
        case .multiple(let factor): return "\(WireValue.number(factor))x"
        case .points(let points): return WireValue.number(points)
        }
    }
}
