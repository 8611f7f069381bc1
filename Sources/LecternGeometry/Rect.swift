// Rect.swift: an axis-aligned rectangle in a view's coordinates (origin top-left, y down).

/// An axis-aligned rectangle in a view's coordinates: its top-left corner
/// and size, in points (protocol/PROTOCOL.md, "Coordinates").
///
/// Width and height are never negative for rects the daemon produces.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width, rightwards from ``x``.
    public var width: Double
    /// The height, downwards from ``y``.
    public var height: Double

    /// The rect with its top-left corner at (`x`, `y`).
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The left edge, ``x``.
    @inlinable public var minX: Double { x }
    /// The top edge, ``y``.
    @inlinable public var minY: Double { y }
    /// The right edge, `x + width`.
    @inlinable public var maxX: Double { x + width }
    /// The bottom edge, `y + height`.
    @inlinable public var maxY: Double { y + height }
    /// The horizontal centre.
    @inlinable public var midX: Double { x + width / 2 }
    /// The vertical centre.
    @inlinable public var midY: Double { y + height / 2 }
    /// The centre, a point that a tap inside the rect could use.
    @inlinable public var center: Point { Point(x: midX, y: midY) }

    /// True when the point lies inside or on the edge of the rect.
    @inlinable
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// True when the interiors of the two rects overlap (touching edges do not count).
    @inlinable
    public func overlaps(_ other: Rect, tolerance: Double = 1e-6) -> Bool {
        minX < other.maxX - tolerance && other.minX < maxX - tolerance
            && minY < other.maxY - tolerance && other.minY < maxY - tolerance
    }

    /// Euclidean distance from the point to the rect; 0 inside.
    @inlinable
    public func distance(to point: Point) -> Double {
        let dx = max(minX - point.x, 0, point.x - maxX)
        let dy = max(minY - point.y, 0, point.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// `x,y,w,h`, as the daemon writes it (``GeometryNumber/spelled(_:)``).
    public var description: String {
        [x, y, width, height].map(GeometryNumber.spelled).joined(separator: ",")
    }
}
