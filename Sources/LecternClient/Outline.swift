// Outline.swift: the border of a highlight.

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
