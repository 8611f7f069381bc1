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

    /// The `<x> <y> [slop=<pt>]` arguments of TAP and SELECT (``PointArguments``).
    static func arguments(_ context: CommandContext) throws -> (x: Double, y: Double, slop: Double) {
        let point = try PointArguments(context.request, positional: context.arguments)
        return (point.x, point.y, point.slop)
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

/// The point of a TAP or SELECT: `<x> <y>` as the second and third
/// positional arguments, and `slop=<pt>` (default 0), read once.
struct PointArguments {
    let x: Double
    let y: Double
    let slop: Double

    /// From a parsed request and its positional arguments (at least three,
    /// as the arity has checked): `ERR NUMBER` naming the first bad one.
    init(_ request: Request, positional: [String]) throws {
        x = try Wire.coordinates.read(positional[1], "x")
        y = try Wire.coordinates.read(positional[2], "y")
        slop = try PointOptions.slop.read(request)
    }

    /// From a plain line's arguments, read in place by
    /// ``NumberRule/read(_:)`` with the same rules; nil when it declines a
    /// number (another spelling such as `1e1` or `+3`, or out of range),
    /// for ``init(_:positional:)`` to read or reject. (The gate has already
    /// refused any option key but `slop`, and `slop` given twice.)
    init?(plain arguments: PlainRequestLine.Arguments) {
        guard let x = arguments.positional(1).flatMap({ Wire.coordinates.read($0) }),
            let y = arguments.positional(2).flatMap({ Wire.coordinates.read($0) })
        else { return nil }
        var slop = PointOptions.defaultSlop
        if arguments.keyedCount > 0, let text = arguments.value(for: "slop") {
            guard let value = Wire.lengths.read(text) else { return nil }
            slop = value
        }
        self.x = x
        self.y = y
        self.slop = slop
    }
}
