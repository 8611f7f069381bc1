// Geometry.swift: points and rects in a view's coordinates.

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

/// The border of a highlight: closed polygons tracing the union of its
/// rects, clockwise on screen, the first point not repeated. A sentence
/// that spans lines without overlapping horizontally gives two polygons.
public struct Outline: Hashable, Sendable {
    /// The polygons; empty when the daemon sent no geometry (no view).
    public var polygons: [[Point]]

    /// An outline of these polygons (each clockwise, first point not repeated).
    public init(polygons: [[Point]]) { self.polygons = polygons }

    /// Parses the wire form: `x,y;x,y;…` polygons joined with `|`.
    init?(wire: String) {
        var polygons: [[Point]] = []
        for polygon in wire.split(separator: "|") {
            var points: [Point] = []
            for point in polygon.split(separator: ";") {
                let xy = point.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0)) }
                guard xy.count == 2, let x = xy[0], let y = xy[1] else { return nil }
                points.append(Point(x: x, y: y))
            }
            polygons.append(points)
        }
        self.polygons = polygons
    }
}
