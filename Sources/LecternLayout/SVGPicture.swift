// SVGPicture.swift: a view's SVG measured before it is written: shaped glyphs as outline paths, defined once and used per glyph.
import Foundation

/// The SVG picture of a ``TextLayout`` with some ``SVGOptions``: measured
/// at creation (``estimatedSize``), written by ``draw()``.
///
/// Form of the picture, in drawing order:
/// - a white background, then line boxes and baselines (when asked), then
///   the highlights' rects and dashed outlines;
/// - `<defs>` with one element per distinct glyph drawn, in order of first
///   use, with id `f<font>g<glyph>` (the index of the font in
///   ``ShapedText/fontUsage``, which is VIEW's `fonts=` order and LINES'
///   font numbers, and the glyph id in that font): a `<path>` of the
///   glyph's outline in the font's design units, y down, with a
///   `transform="scale(size / unitsPerEm)"`; for a colour bitmap glyph
///   (emoji) an `<image>` of its PNG instead;
/// - one `<use href="#f…g…" x=… y=…/>` per glyph drawn, at its origin on
///   the baseline (``TextLayout/forEachGlyph(_:)``): what HarfBuzz shaped,
///   so Arabic is joined and Devanagari has its conjuncts, and the picture
///   needs no font on the viewer's side;
/// - attachments (dashed boxes with their names), sentence marks, the caret.
///
/// Glyphs with nothing to draw (spaces) get neither a definition nor a use.
/// A glyph used a thousand times is defined once, so the size grows with
/// the number of glyphs by one short `<use>` each.
public struct SVGPicture: Sendable {
    public let layout: TextLayout
    public let options: SVGOptions
    /// An upper bound on the UTF-8 length of ``draw()``: exact for the
    /// glyphs (each definition is written once to measure it, each `<use>`
    /// counted with its id and numbers), and bounded as before for the
    /// rest (highlights by the most rects their ranges can have, numbers by
    /// the largest magnitude they can have; see `nonGlyphBound`).
    /// Typically a few percent above the real size.
    public let estimatedSize: Int
    /// Distinct glyphs with something to draw, in order of first use.
    public let distinctGlyphs: [GlyphKey]
    /// Number of `<use>` elements (glyphs drawn).
    public let glyphUses: Int
    /// For each font (by ``ShapedText/fontUsage`` index), each glyph id's
    /// place in ``distinctGlyphs``: -1 nothing to draw, -2 not used.
    private let ordinals: [[Int32]]
    /// Every `<use>` in order, kept while the picture stays within the
    /// budget it was measured with; nil past it (``draw()`` then shapes
    /// the text again).
    private let uses: [GlyphUse]?

    /// A glyph to draw: its place in ``distinctGlyphs`` and its origin.
    private struct GlyphUse {
        var ordinal: Int32
        var x: Double
        var y: Double
    }

    /// A glyph of one of the layout's fonts.
    public struct GlyphKey: Hashable, Sendable {
        /// Index into ``ShapedText/fontUsage``.
        public var font: Int
        public var glyph: UInt32

        /// The element id: `f<font>g<glyph>`.
        public var id: String { "f\(font)g\(glyph)" }
    }

    /// Measures the picture; keeps its glyphs' positions (24 bytes each)
    /// unless the estimate passes `budget`, so that a picture too large to
    /// send costs no memory in proportion to it.
    init(layout: TextLayout, options: SVGOptions, budget: Int) {
        self.layout = layout
        self.options = options
        let fonts = layout.shaped.fontUsage.map(\.font)
        let scales = fonts.map { SVGWriter.scale(layout.fontSize / Double($0.unitsPerEm)) }
        let usageIndex = layout.shaped.usageIndex
        var ordinals = fonts.map { [Int32](repeating: -2, count: GlyphOutline.glyphCount(of: $0)) }
        var order: [GlyphKey] = []
        var idLengths: [Int] = []
        var kept: [GlyphUse]? = []
        let fixedBytes = layout.nonGlyphBound(options) + Self.definitionsFrameBytes
        var definitionBytes = 0
        var useCount = 0
        var useBytes = 0
        layout.forEachGlyph { glyph in
            // Every font that draws a grapheme is in the usage list.
            guard let font = usageIndex[glyph.fontIndex], glyph.glyph < ordinals[font].count else { return }
            var ordinal = ordinals[font][Int(glyph.glyph)]
            if ordinal == -2 {
                let key = GlyphKey(font: font, glyph: glyph.glyph)
                var writer = SVGWriter(width: 0, height: 0)
                if Self.define(key, font: fonts[font], scale: scales[font], into: &writer) {
                    definitionBytes += writer.output.utf8.count
                    ordinal = Int32(order.count)
                    order.append(key)
                    idLengths.append(key.id.utf8.count)
                } else {
                    ordinal = -1
                }
                ordinals[font][Int(glyph.glyph)] = ordinal
            }
            guard ordinal >= 0 else { return }
            useCount += 1
            useBytes += SVGSizeBound.use + idLengths[Int(ordinal)]
                + SVGWriter.numberLength(glyph.x) + SVGWriter.numberLength(glyph.y)
            guard kept != nil else { return }
            if fixedBytes + definitionBytes + useBytes > budget {
                kept = nil
            } else {
                kept?.append(GlyphUse(ordinal: ordinal, x: glyph.x, y: glyph.y))
            }
        }
        estimatedSize = order.isEmpty ? fixedBytes - Self.definitionsFrameBytes : fixedBytes + definitionBytes + useBytes
        distinctGlyphs = order
        glyphUses = useCount
        self.ordinals = ordinals
        uses = kept
    }

    /// `<defs>` and `</defs>`, written only when some glyph is drawn.
    private static let definitionsFrameBytes: Int = {
        var frame = SVGWriter(width: 0, height: 0)
        frame.openDefinitions()
        frame.closeDefinitions()
        return frame.output.utf8.count
    }()

    /// Writes the picture: at most ``estimatedSize`` bytes of UTF-8.
    /// - Complexity: the distinct glyphs' outlines, O(glyphs + rects of the
    ///   options' ranges) elements; and shaping the text again when the
    ///   picture was measured past its budget.
    public func draw() -> String {
        var svg = SVGWriter(width: layout.spec.width, height: layout.height)
        svg.reserveCapacity(estimatedSize)
        svg.open()
        layout.drawUnderlay(options, into: &svg)
        if !distinctGlyphs.isEmpty {
            let fonts = layout.shaped.fontUsage.map(\.font)
            let scales = fonts.map { SVGWriter.scale(layout.fontSize / Double($0.unitsPerEm)) }
            svg.openDefinitions()
            for key in distinctGlyphs { _ = Self.define(key, font: fonts[key.font], scale: scales[key.font], into: &svg) }
            svg.closeDefinitions()
            let prefixes = distinctGlyphs.map { SVGWriter.usePrefix($0.id) }
            if let uses {
                for use in uses { svg.use(prefix: prefixes[Int(use.ordinal)], at: Point(x: use.x, y: use.y)) }
            } else {
                let usageIndex = layout.shaped.usageIndex
                let ordinals = self.ordinals
                layout.forEachGlyph { glyph in
                    guard let font = usageIndex[glyph.fontIndex], glyph.glyph < ordinals[font].count else { return }
                    let ordinal = ordinals[font][Int(glyph.glyph)]
                    guard ordinal >= 0 else { return }
                    svg.use(prefix: prefixes[Int(ordinal)], at: Point(x: glyph.x, y: glyph.y))
                }
            }
        }
        layout.drawOverlay(options, into: &svg)
        svg.close()
        return svg.output
    }

    /// Writes the definition of `key`: its outline, else its PNG; false
    /// (and nothing written) when it has neither.
    private static func define(_ key: GlyphKey, font: Font, scale: String, into svg: inout SVGWriter) -> Bool {
        let path = GlyphOutline.pathData(of: key.glyph, in: font)
        if !path.isEmpty {
            svg.glyphPath(id: key.id, scale: scale, pathData: path)
            return true
        }
        let image = GlyphOutline.withPNG(of: key.glyph, in: font) { png, frame in
            (Data(png).base64EncodedString(), frame)
        }
        guard let (base64, frame) = image else { return false }
        svg.glyphImage(id: key.id, scale: scale, frame: frame, base64PNG: base64)
        return true
    }
}
