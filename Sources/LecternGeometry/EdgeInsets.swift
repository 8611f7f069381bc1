// EdgeInsets.swift: padding between a view's edges and its text.

/// Space between a view's edges and its text, in points.
public struct EdgeInsets: Hashable, Sendable {
    /// Space above the first line.
    public var top: Double
    /// Space before each line's start.
    public var left: Double
    /// Space below the last line.
    public var bottom: Double
    /// Space after each line's end.
    public var right: Double

    /// Insets given side by side; a side not given is 0.
    @inlinable
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on all four sides.
    @inlinable
    public init(all value: Double) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    /// `vertical` above and below, `horizontal` left and right.
    @inlinable
    public init(vertical: Double, horizontal: Double) {
        self.init(top: vertical, left: horizontal, bottom: vertical, right: horizontal)
    }

    /// No insets.
    public static let zero = EdgeInsets()
}
