// GlyphOutline.swift: a glyph's outline as SVG path data, or its colour bitmap, from the font file itself.
import CHarfBuzz
import Foundation

/// What a glyph looks like, read from its font: the outline (TrueType
/// `glyf`, `CFF`, `CFF2`) through HarfBuzz's draw API
/// (`hb_font_get_glyph_shape`, HarfBuzz ≥ 4), or for a bitmap-only colour
/// font (Noto Color Emoji's `CBDT`) its PNG (`hb_ot_color_glyph_reference_png`).
///
/// Coordinates are design units with y pointing *down* (SVG's way): the
/// caller scales by `size / unitsPerEm` and places the glyph origin on the
/// baseline. Outlines are unhinted, as the layout's advances are.
///
/// Unsafe code: HarfBuzz calls the draw callbacks with the `draw_data`
/// pointer given to `hb_font_get_glyph_shape`, and only during that call.
/// The pointer is an unretained reference to a `PathData` that
/// `withExtendedLifetime` keeps alive for the whole call, so every callback
/// sees a live object; nothing keeps the pointer after the call returns.
/// The callbacks are `@convention(c)` closures capturing nothing. This file
/// is the only one in LecternLayout that turns raw pointers into objects.
///
/// Thread safety: HarfBuzz draws from an immutable font on any thread; each
/// call has its own `PathData`. The callback table is created once and
/// made immutable.
enum GlyphOutline {
    /// SVG path data (`M`, `L`, `Q`, `C`, `Z`, integer design units, y down)
    /// of `glyph` in `font`; empty when the glyph has no outline (a space,
    /// a bitmap glyph).
    /// - Complexity: O(points of the outline).
    static func pathData(of glyph: UInt32, in font: Font) -> String {
        guard let funcs = drawFuncs else { return "" }
        let data = PathData()
        withExtendedLifetime(data) {
            hb_font_get_glyph_shape(font.baseFont, glyph, funcs, Unmanaged.passUnretained(data).toOpaque())
        }
        return data.path
    }

    /// The glyph's PNG and where it sits (x, y of its top-left corner, y
    /// down, width, height, in design units); nil when the font has none
    /// for it.
    /// - Complexity: O(1) (the PNG is not copied: `body` reads it in place).
    static func withPNG<Result>(
        of glyph: UInt32, in font: Font, _ body: (UnsafeRawBufferPointer, Rect) -> Result
    ) -> Result? {
        guard let face = hb_font_get_face(font.baseFont), hb_ot_color_has_png(face) != 0,
              let blob = hb_ot_color_glyph_reference_png(font.baseFont, glyph) else { return nil }
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let bytes = hb_blob_get_data(blob, &length), length > 0 else { return nil }
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font.baseFont, glyph, &extents) != 0 else { return nil }
        let frame = Rect(
            x: Double(extents.x_bearing), y: -Double(extents.y_bearing),
            width: Double(extents.width), height: -Double(extents.height))
        return body(UnsafeRawBufferPointer(start: bytes, count: Int(length)), frame)
    }

    /// Number of glyphs in the font's face (glyph ids are below it).
    static func glyphCount(of font: Font) -> Int {
        hb_font_get_face(font.baseFont).map { Int(hb_face_get_glyph_count($0)) } ?? 0
    }

    /// Accumulates path data while HarfBuzz draws.
    private final class PathData {
        var path = ""

        func command(_ letter: Character, _ coordinates: Float...) {
            path.append(letter)
            for (index, value) in coordinates.enumerated() {
                if index > 0 { path.append(" ") }
                // y is negated: font space points up, SVG's down.
                path += Self.integer(index % 2 == 1 ? -value : value)
            }
        }

        /// A design-unit coordinate rounded to an integer (1/1000 em or
        /// finer for any font); non-finite or absurd values clamped.
        private static func integer(_ value: Float) -> String {
            guard value.isFinite else { return "0" }
            return String(Int(min(max(value, -1_000_000), 1_000_000).rounded()))
        }
    }

    private static func data(_ pointer: UnsafeMutableRawPointer?) -> PathData? {
        pointer.map { Unmanaged<PathData>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The callbacks, made once; nil only if HarfBuzz cannot allocate them.
    private static let drawFuncs: OpaquePointer? = {
        guard let funcs = hb_draw_funcs_create() else { return nil }
        hb_draw_funcs_set_move_to_func(funcs, { _, data, _, x, y, _ in
            GlyphOutline.data(data)?.command("M", x, y)
        }, nil, nil)
        hb_draw_funcs_set_line_to_func(funcs, { _, data, _, x, y, _ in
            GlyphOutline.data(data)?.command("L", x, y)
        }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(funcs, { _, data, _, cx, cy, x, y, _ in
            GlyphOutline.data(data)?.command("Q", cx, cy, x, y)
        }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(funcs, { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
            GlyphOutline.data(data)?.command("C", c1x, c1y, c2x, c2y, x, y)
        }, nil, nil)
        hb_draw_funcs_set_close_path_func(funcs, { _, data, _, _ in
            GlyphOutline.data(data)?.path.append("Z")
        }, nil, nil)
        hb_draw_funcs_make_immutable(funcs)
        return funcs
    }()
}
