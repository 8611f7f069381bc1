// Rect.swift: a rectangle in a view's coordinates.

/// A rectangle in a view's coordinates: its top-left corner and size, in points.
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
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right edge, `x + width`.
    public var maxX: Double { x + width }
    /// The bottom edge, `y + height`.
    public var maxY: Double { y + height }
    /// The centre, a point that a tap inside the rect could use.
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }

    /// Parses the wire form `x,y,w,h`.
    init?(wire: some StringProtocol) {
        let parts = wire.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else { return nil }
        self.init(x: x, y: y, width: w, height: h)
    }

    /// `x,y,w,h`, as the daemon writes it.
    public var description: String {
        [x, y, width, height].map(WireValue.number).joined(separator: ",")
    }
}
