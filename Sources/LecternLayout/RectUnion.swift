// RectUnion.swift: the outline polygon(s) of a union of axis-aligned rects.

/// Traces the boundary of a union of rects, for dashed "marching ants"
/// borders around a multi-line highlight.
enum RectUnion {
    /// Rects above this count use only the linear staircase tracer; the
    /// general tracer is quadratic in the number of distinct coordinates.
    static let generalTracerLimit = 256

    /// Closed polygons (first point not repeated) tracing the union's
    /// boundary, clockwise on screen (y down), without collinear points.
    /// Pieces that do not touch give separate polygons; holes are traced too.
    ///
    /// - Complexity: O(n) for per-line highlights (one rect per row, rows
    ///   tiling downwards); O(n²) otherwise, for n up to `generalTracerLimit`.
    static func outline(of rects: [Rect]) -> [[Point]] {
        let boxes = rects.filter { $0.width > 0 && $0.height > 0 }
        guard !boxes.isEmpty else { return [] }
        if let staircase = staircases(boxes) { return staircase }
        guard boxes.count <= generalTracerLimit else {
            // Too many for the grid: outline each rect (still a correct cover).
            return boxes.map(corners)
        }
        return traceGrid(boxes)
    }

    private static func corners(_ r: Rect) -> [Point] {
        [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY),
         Point(x: r.maxX, y: r.maxY), Point(x: r.minX, y: r.maxY)]
    }

    /// One rect per row, each row starting where the previous ended: the
    /// union of rows that overlap horizontally is a staircase polygon.
    private static func staircases(_ rects: [Rect]) -> [[Point]]? {
        for i in rects.indices.dropFirst() where rects[i].minY != rects[i - 1].maxY { return nil }
        var polygons: [[Point]] = []
        var group: [Rect] = []
        func flush() {
            guard !group.isEmpty else { return }
            var points: [Point] = []
            for r in group {
                points.append(Point(x: r.maxX, y: r.minY))
                points.append(Point(x: r.maxX, y: r.maxY))
            }
            for r in group.reversed() {
                points.append(Point(x: r.minX, y: r.maxY))
                points.append(Point(x: r.minX, y: r.minY))
            }
            polygons.append(simplified(points))
            group.removeAll()
        }
        for r in rects {
            if let last = group.last, !(r.minX < last.maxX && last.minX < r.maxX) { flush() }
            group.append(r)
        }
        flush()
        return polygons
    }

    /// General union by coordinate compression: mark covered grid cells,
    /// collect directed boundary edges (interior on the right), chain them.
    private static func traceGrid(_ rects: [Rect]) -> [[Point]] {
        let xs = Array(Set(rects.flatMap { [$0.minX, $0.maxX] })).sorted()
        let ys = Array(Set(rects.flatMap { [$0.minY, $0.maxY] })).sorted()
        let columns = xs.count - 1
        let rows = ys.count - 1
        var covered = [Bool](repeating: false, count: max(0, columns * rows))
        for r in rects {
            guard let x0 = xs.firstIndex(of: r.minX), let x1 = xs.firstIndex(of: r.maxX),
                  let y0 = ys.firstIndex(of: r.minY), let y1 = ys.firstIndex(of: r.maxY) else { continue }
            for row in y0..<y1 { for column in x0..<x1 { covered[row * columns + column] = true } }
        }
        func isCovered(_ column: Int, _ row: Int) -> Bool {
            column >= 0 && column < columns && row >= 0 && row < rows && covered[row * columns + column]
        }
        struct Vertex: Hashable { var column: Int; var row: Int }
        var next: [Vertex: [Vertex]] = [:]
        for row in 0..<rows {
            for column in 0..<columns where isCovered(column, row) {
                let topLeft = Vertex(column: column, row: row)
                let topRight = Vertex(column: column + 1, row: row)
                let bottomLeft = Vertex(column: column, row: row + 1)
                let bottomRight = Vertex(column: column + 1, row: row + 1)
                if !isCovered(column, row - 1) { next[topLeft, default: []].append(topRight) }
                if !isCovered(column + 1, row) { next[topRight, default: []].append(bottomRight) }
                if !isCovered(column, row + 1) { next[bottomRight, default: []].append(bottomLeft) }
                if !isCovered(column - 1, row) { next[bottomLeft, default: []].append(topLeft) }
            }
        }
        var polygons: [[Point]] = []
        while let start = next.keys.min(by: { ($0.row, $0.column) < ($1.row, $1.column) }) {
            var loop: [Point] = []
            var vertex = start
            while var targets = next[vertex], let target = targets.popLast() {
                next[vertex] = targets.isEmpty ? nil : targets
                loop.append(Point(x: xs[vertex.column], y: ys[vertex.row]))
                vertex = target
            }
            polygons.append(simplified(loop))
        }
        return polygons
    }

    /// Drops repeated points and points in the middle of a straight edge.
    static func simplified(_ points: [Point]) -> [Point] {
        var result: [Point] = []
        for p in points where result.last != p { result.append(p) }
        if result.count > 1, result.first == result.last { result.removeLast() }
        var changed = true
        while changed, result.count > 2 {
            changed = false
            var kept: [Point] = []
            for i in result.indices {
                let previous = result[(i + result.count - 1) % result.count]
                let current = result[i]
                let following = result[(i + 1) % result.count]
                let collinear = (previous.x == current.x && current.x == following.x)
                    || (previous.y == current.y && current.y == following.y)
                if collinear { changed = true } else { kept.append(current) }
            }
            result = kept
        }
        return result
    }
}
