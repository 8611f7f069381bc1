// Font.swift: one loaded font face: HarfBuzz face and font, vertical metrics in em.
import CHarfBuzz

/// A font file face loaded once and shared by every shaping call.
///
/// Fonts use HarfBuzz's own OpenType font functions (`hb-ot`) at a scale of
/// one design unit per unit, so shaping results are size-independent and are
/// scaled per view (`advance × size / unitsPerEm`). Glyph positions are
/// unhinted, as in Pango ≥ 1.44. This also covers bitmap-only fonts such as
/// Noto Color Emoji (CBDT): their advances come from `hmtx` in design units
/// and scale linearly to any point size, so no `FT_Select_Size` strike
/// selection is needed for geometry (it matters only for rasterising, which
/// Lectern leaves to clients; RENDER's SVG embeds the font's own PNG and
/// scales it, see `GlyphOutline`).
///
/// Character coverage and HarfBuzz's own cmap lookups go through a
/// `NominalGlyphTable` copied from the font at load: `hbFont` is a HarfBuzz
/// sub-font of the OpenType font whose nominal-glyph functions read that
/// table (the same answers, without a cmap search per character); every
/// other function (advances, extents, layout tables) is the parent's.
///
/// Thread safety: a `Font` is immutable after creation (`hb_font_make_immutable`,
/// and the glyph table is never written after init); HarfBuzz allows shaping
/// with an immutable font from several threads at once, each with its own
/// buffer, and to draw glyph outlines (`GlyphOutline`). No FreeType object
/// is used, so no lock is needed.
public final class Font: @unchecked Sendable, CustomStringConvertible {
    /// The family name fontconfig reports for this face.
    public let family: String
    /// Path of the font file.
    public let path: String
    /// Face index inside the file (collections such as `.ttc`).
    public let faceIndex: Int
    /// Design units per em.
    public let unitsPerEm: Int
    /// Ascender above the baseline, in em (positive).
    public let ascent: Double
    /// Descender below the baseline, in em (positive).
    public let descent: Double
    /// Recommended gap between lines, in em.
    public let lineGap: Double

    /// The font to shape with: `baseFont` with nominal glyphs from `glyphTable`.
    let hbFont: OpaquePointer
    /// HarfBuzz's OpenType font, `hbFont`'s parent.
    let baseFont: OpaquePointer
    let glyphTable: NominalGlyphTable

    /// Loads face `faceIndex` of the file at `path`; nil when the file cannot
    /// be read or holds no such face.
    init?(path: String, faceIndex: Int, family: String) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard faceIndex >= 0, UInt32(faceIndex) < hb_face_count(blob) else { return nil }
        guard let face = hb_face_create(blob, UInt32(faceIndex)) else { return nil }
        defer { hb_face_destroy(face) }
        let upem = Int(hb_face_get_upem(face))
        guard upem > 0, let font = hb_font_create(face) else { return nil }
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        hb_font_make_immutable(font)
        let table = NominalGlyphTable(font: font, face: face)
        guard let shapingFont = hb_font_create_sub_font(font) else {
            hb_font_destroy(font)
            return nil
        }
        if let funcs = NominalGlyphTable.fontFuncs {
            hb_font_set_funcs(shapingFont, funcs, table.pointer, nil)
        } // else the sub-font forwards everything to the parent
        hb_font_make_immutable(shapingFont)
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        let scale = 1 / Double(upem)
        var ascent = Double(extents.ascender) * scale
        var descent = Double(-extents.descender) * scale
        if ascent + descent <= 0 {
            // Broken metrics: fall back to a conventional 0.8 / 0.2 split.
            ascent = 0.8
            descent = 0.2
        }
        self.baseFont = font
        self.glyphTable = table
        self.hbFont = shapingFont
        self.family = family
        self.path = path
        self.faceIndex = faceIndex
        self.unitsPerEm = upem
        self.ascent = ascent
        self.descent = descent
        self.lineGap = max(0, Double(extents.line_gap) * scale)
    }

    deinit {
        hb_font_destroy(hbFont) // before the table its functions read
        hb_font_destroy(baseFont)
    }

    /// True when the font maps the scalar to a glyph (its cmap covers it).
    /// - Complexity: O(1) in the BMP; O(log n) in the cmap subtable beyond.
    public func covers(_ scalar: UInt32) -> Bool {
        if scalar <= 0xFFFF { return glyphTable.glyph(scalar) != 0 }
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(baseFont, scalar, &glyph) != 0
    }

    public var description: String { "\(family) (\(path)#\(faceIndex))" }
}
