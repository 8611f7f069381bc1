// TapTargets.swift: points of a view that land on letters, from its LINES reply.

import Foundation
import LecternGeometry
import LecternProtocol

/// Points to tap that hit text: the centre of every letter of every line,
/// vertically in the middle of the line box.
///
/// Built from a `LINES` reply (each line's `range`, `top`, `height`, `x`,
/// `width` and the x of every grapheme boundary, `carets`) and the ASCII
/// text the document holds, so that spaces (which may sit between two
/// sentences) and trailing spaces hanging past the line's width are skipped.
struct TapTargets {
    typealias Point = LecternGeometry.Point

    private(set) var points: [Point] = []

    init(linesReply reply: Reply, text: String) {
        let bytes = Array(text.utf8)
        for line in reply.dataLines {
            guard let range = LineFields.range("range", in: line),
                let top = LineFields.number("top", in: line),
                let height = LineFields.number("height", in: line),
                let x = LineFields.number("x", in: line),
                let width = LineFields.number("width", in: line),
                let caretBytes = LineFields.value("carets", in: line)
            else { continue }
            let carets = caretBytes.split(separator: UInt8(ascii: ",")).compactMap { WireNumber.double($0) }
            for i in 0..<max(0, carets.count - 1) {
                let offset = range.lowerBound + i
                guard offset < bytes.count, bytes[offset] != UInt8(ascii: " ") else { continue }
                let centre = (carets[i] + carets[i + 1]) / 2
                guard centre > x, centre < x + width else { continue }
                points.append(Point(x: centre, y: top + height / 2))
            }
        }
    }

    var isEmpty: Bool { points.isEmpty }
}

extension Point {
    /// `x y` as a request writes them.
    var wire: String { "\(WireNumber.text(x)) \(WireNumber.text(y))" }
}
