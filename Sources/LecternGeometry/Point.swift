// Point.swift: a point in a view's coordinates (points, origin top-left, y down).

/// A point in a view: origin at the top-left corner, x to the right, y down,
/// in points (protocol/PROTOCOL.md, "Coordinates").
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Points from the view's left edge.
    public var x: Double
    /// Points from the view's top edge, downwards.
    public var y: Double

    /// The point (`x`, `y`).
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// `(x, y)`, numbers written as the daemon writes them.
    public var description: String { "(\(GeometryNumber.spelled(x)), \(GeometryNumber.spelled(y)))" }
}
