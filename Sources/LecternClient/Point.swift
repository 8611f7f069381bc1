// Point.swift: a point in a view's coordinates.

/// A point in a view: origin at the top-left corner, x to the right, y down,
/// in points (protocol/PROTOCOL.md, "Coordinates").
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Points from the view's left edge.
    public var x: Double
    /// Points from the view's top edge, downwards.
    public var y: Double

    /// The point (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// `(x, y)`, numbers written as the daemon writes them.
    public var description: String { "(\(WireValue.number(x)), \(WireValue.number(y)))" }
}
