// Point.swift: a point in view coordinates (points, origin top-left, y down).

/// A point in view coordinates (points, origin top-left, y grows downwards).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x), \(y))" }
}
