// Rect.swift: an axis-aligned rectangle in view coordinates (origin top-left, y down).

/// An axis-aligned rectangle in view coordinates (origin top-left, y down).
///
/// Width and height are never negative for rects this module produces.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    /// True when the point lies inside or on the edge of the rect.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// True when the interiors of the two rects overlap (touching edges do not count).
    public func overlaps(_ other: Rect, tolerance: Double = 1e-6) -> Bool {
        minX < other.maxX - tolerance && other.minX < maxX - tolerance
            && minY < other.maxY - tolerance && other.minY < maxY - tolerance
    }

    /// Euclidean distance from the point to the rect; 0 inside.
    public func distance(to point: Point) -> Double {
        let dx = max(minX - point.x, 0, point.x - maxX)
        let dy = max(minY - point.y, 0, point.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    public var description: String { "Rect(x: \(x), y: \(y), w: \(width), h: \(height))" }
}
