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
    private let drawable: Set<GlyphKey>

    /// A glyph of one of the layout's fonts.
    public struct GlyphKey: Hashable, Sendable {
        /// Index into ``ShapedText/fontUsage``.
        public var font: Int
        public var glyph: UInt32

        /// The element id: `f<font>g<glyph>`.
        public var id: String { "f\(font)g\(glyph)" }

        /// `id.utf8.count`, without making the string.
        var idLength: Int { 2 + Self.digits(font) + Self.digits(Int(glyph)) }

        private static func digits(_ value: Int) -> Int {
            var count = 1
            var rest = value / 10
            while rest > 0 {
                count += 1
                rest /= 10
            }
            return count
        }
    }

    init(layout: TextLayout, options: SVGOptions) {
        self.layout = layout
        self.options = options
        let scales = layout.shaped.fontUsage.map { SVGWriter.scale(layout.fontSize / Double($0.font.unitsPerEm)) }
        let usageIndex = layout.shaped.usageIndex
        var known: [GlyphKey: Bool] = [:]
        var order: [GlyphKey] = []
        var definitionBytes = 0
        var uses = 0
        var idBytes = 0
        var numberBytes = 0
        layout.forEachGlyph { glyph in
            // Every font that draws a grapheme is in the usage list.
            guard let font = usageIndex[glyph.fontIndex] else { return }
            let key = GlyphKey(font: font, glyph: glyph.glyph)
            let isDrawn: Bool
            if let answer = known[key] {
                isDrawn = answer
            } else {
                var writer = SVGWriter(width: 0, height: 0)
                isDrawn = Self.define(key, in: layout, scale: scales[key.font], into: &writer)
                definitionBytes += writer.output.utf8.count
                known[key] = isDrawn
                if isDrawn { order.append(key) }
            }
            guard isDrawn else { return }
            uses += 1
            idBytes += key.idLength
            // Exact, and cheap: numbers this short are small strings, not allocated.
            numberBytes += SVGWriter.number(glyph.x).utf8.count + SVGWriter.number(glyph.y).utf8.count
        }
        var glyphBytes = 0
        if !order.isEmpty {
            var frame = SVGWriter(width: 0, height: 0)
            frame.openDefinitions()
            frame.closeDefinitions()
            glyphBytes = frame.output.utf8.count + definitionBytes + uses * SVGSizeBound.use + idBytes + numberBytes
        }
        estimatedSize = layout.nonGlyphBound(options) + glyphBytes
        distinctGlyphs = order
        glyphUses = uses
        drawable = Set(order)
    }

    /// Writes the picture: at most ``estimatedSize`` bytes of UTF-8.
    /// - Complexity: shaping the text again, the distinct glyphs' outlines,
    ///   O(glyphs + rects of the options' ranges) elements.
    public func draw() -> String {
        var svg = SVGWriter(width: layout.spec.width, height: layout.height)
        svg.reserveCapacity(estimatedSize)
        svg.open()
        layout.drawUnderlay(options, into: &svg)
        if !distinctGlyphs.isEmpty {
            let scales = layout.shaped.fontUsage.map { SVGWriter.scale(layout.fontSize / Double($0.font.unitsPerEm)) }
            let usageIndex = layout.shaped.usageIndex
            svg.openDefinitions()
            for key in distinctGlyphs { _ = Self.define(key, in: layout, scale: scales[key.font], into: &svg) }
            svg.closeDefinitions()
            let drawable = self.drawable
            layout.forEachGlyph { glyph in
                guard let font = usageIndex[glyph.fontIndex] else { return }
                let key = GlyphKey(font: font, glyph: glyph.glyph)
                guard drawable.contains(key) else { return }
                svg.use(key.id, at: Point(x: glyph.x, y: glyph.y))
            }
        }
        layout.drawOverlay(options, into: &svg)
        svg.close()
        return svg.output
    }

    /// Writes the definition of `key`: its outline, else its PNG; false
    /// (and nothing written) when it has neither.
    private static func define(_ key: GlyphKey, in layout: TextLayout, scale: String, into svg: inout SVGWriter) -> Bool {
        let font = layout.shaped.fontUsage[key.font].font
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
