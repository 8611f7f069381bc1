// PointHit.swift: what a TAP or SELECT point lands on.

import LecternLayout
import LecternProtocol
import LecternText

/// A point of a view resolved for TAP and SELECT: an attachment, a sentence,
/// or a miss (farther than `slop` from any text) with the nearest sentence.
enum PointHit {
    case attachment(index: Int, hit: HitResult)
    case sentence(Sentence, hit: HitResult)
    case miss(distance: Double, nearest: Sentence?)

    /// The `<x> <y> [slop=<pt>]` arguments of TAP and SELECT.
    static func arguments(_ context: CommandContext) throws -> (x: Double, y: Double, slop: Double) {
        let x = try Wire.double(context.arguments[1], "x", in: Wire.coordinateRange, unit: "points")
        let y = try Wire.double(context.arguments[2], "y", in: Wire.coordinateRange, unit: "points")
        let slop = try context.request.value(for: "slop").map { try Wire.double($0, "slop", in: Wire.lengthRange, unit: "points") } ?? 0
        return (x, y, slop)
    }

    /// Hit-tests (x, y): inside a glyph's or attachment's box, or within `slop` of it, is a hit.
    init(document: Document, layout: TextLayout, x: Double, y: Double, slop: Double) {
        let hit = layout.hitTest(x: x, y: y)
        let near = hit.isInside || hit.distance <= slop
        if let index = hit.attachment, near {
            self = .attachment(index: index, hit: hit)
            return
        }
        let probe = hit.grapheme.isEmpty ? hit.offset : hit.grapheme.lowerBound
        let sentence = document.sentence(containing: probe)
        if let sentence, near {
            self = .sentence(sentence, hit: hit)
        } else {
            self = .miss(distance: hit.distance, nearest: sentence)
        }
    }

    /// ``init(document:layout:x:y:slop:)`` in a layout from the caches.
    init(document: Document, layout: CachedLayout, x: Double, y: Double, slop: Double) {
        self.init(document: document, layout: layout.layout, x: x, y: y, slop: slop)
    }

    /// `miss distance=… nearest=…` for the reply.
    static func missFacts(distance: Double, nearest: Sentence?) -> String {
        "miss distance=\(Wire.number(distance)) nearest=\(nearest.map { String($0.number) } ?? "none")"
    }
}
