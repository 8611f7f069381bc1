// EdgeInsets.swift: a view's insets.

/// Insets of a view, in points.
public struct EdgeInsets: Hashable, Sendable {
    /// Space above the first line.
    public var top: Double
    /// Space before each line's start.
    public var left: Double
    /// Space below the last line.
    public var bottom: Double
    /// Space after each line's end.
    public var right: Double

    /// Insets given side by side.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on all four sides.
    public init(all: Double) { self.init(top: all, left: all, bottom: all, right: all) }

    /// `vertical` above and below, `horizontal` left and right.
    public init(vertical: Double, horizontal: Double) {
        self.init(top: vertical, left: horizontal, bottom: vertical, right: horizontal)
    }

    var wire: String { [top, left, bottom, right].map(WireValue.number).joined(separator: ",") }
}
