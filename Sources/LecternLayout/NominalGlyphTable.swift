// NominalGlyphTable.swift: a font's cmap for the BMP as a flat two-level table, read without HarfBuzz calls.
import CHarfBuzz

/// The nominal glyph (cmap mapping) of every Basic Multilingual Plane
/// scalar of one font, copied once from HarfBuzz when the font is loaded.
///
/// Why: a cmap lookup through HarfBuzz (`hb_font_get_nominal_glyph`) walks
/// the cmap subtable (a binary search for format 4) and, in HarfBuzz 6, only
/// caches hits, so every lookup of a character the font lacks (Hangul in a
/// Latin font, during fallback) pays the full search. Shaping asks for the
/// nominal glyph of every character at least twice (itemization's coverage
/// check, then HarfBuzz's normalization and glyph mapping). This table
/// answers in two loads, and `Font` installs it as the nominal-glyph
/// function of the `hb_font_t` it shapes with, so HarfBuzz uses it too.
///
/// The answers are HarfBuzz's own (`hb_font_get_nominal_glyph` on the
/// unmodified font), so shaping results are unchanged; scalars beyond the
/// BMP are not stored and are answered by HarfBuzz.
///
/// Layout: 256 page slots (one per high byte) then the pages, 256 glyph ids
/// each; slot 0 is an all-zero page shared by every page the font does not
/// touch. Glyph 0 means "not covered" (HarfBuzz never maps a scalar to
/// `.notdef`).
///
/// Thread safety: immutable after init; any thread may read it.
final class NominalGlyphTable: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<UInt16>

    /// Copies the BMP mapping of `font` (an `hb_font_t` with HarfBuzz's
    /// OpenType functions, on `face`).
    ///
    /// When the face has a Unicode cmap subtable (platform 0 except the
    /// variation-sequence subtable 0/5, or Windows encoding 1 or 10),
    /// HarfBuzz maps through that subtable alone, and only pages holding one
    /// of its scalars (`hb_face_collect_unicodes`) can answer: only those
    /// are queried. Without one (symbol or Mac Roman
    /// cmaps, which HarfBuzz remaps), every page is queried.
    /// - Complexity: O(pages used × 256) cmap lookups, once per font
    ///   (0.2 ms for DejaVu Sans, 1 ms for NanumGothic; 1–3 ms for a face
    ///   without a Unicode cmap), paid on the font's first use, like loading it.
    init(font: OpaquePointer, face: OpaquePointer) {
        var usedPages = [Bool](repeating: !Self.hasUnicodeSubtable(face), count: 256)
        if !usedPages[0], let set = hb_set_create() {
            hb_face_collect_unicodes(face, set)
            var codepoint = UInt32.max // HB_SET_VALUE_INVALID: start from the beginning
            while hb_set_next(set, &codepoint) != 0, codepoint <= 0xFFFF {
                usedPages[Int(codepoint >> 8)] = true
                codepoint |= 0xFF // on to the next page
            }
            hb_set_destroy(set)
        }
        var pages: [[UInt16]] = []
        var slots = [UInt16](repeating: 0, count: 256)
        for page in 0..<256 where usedPages[page] {
            var glyphs = [UInt16](repeating: 0, count: 256)
            var any = false
            for low in 0..<256 {
                var glyph: hb_codepoint_t = 0
                if hb_font_get_nominal_glyph(font, hb_codepoint_t(page << 8 | low), &glyph) != 0, glyph <= 0xFFFF {
                    glyphs[low] = UInt16(glyph)
                    any = any || glyph != 0
                }
            }
            if any {
                pages.append(glyphs)
                slots[page] = UInt16(pages.count)
            }
        }
        storage = .allocate(capacity: 256 + 256 * (pages.count + 1))
        storage.initialize(repeating: 0, count: 256 + 256 * (pages.count + 1))
        for page in 0..<256 { storage[page] = slots[page] }
        for (index, glyphs) in pages.enumerated() {
            (storage + 256 + 256 * (index + 1)).update(from: glyphs, count: 256)
        }
    }

    /// Whether the face's cmap has a subtable HarfBuzz reads as Unicode
    /// (platform 0 except encoding 5, the variation sequences, or platform 3
    /// encoding 1 or 10).
    private static func hasUnicodeSubtable(_ face: OpaquePointer) -> Bool {
        let tag: hb_tag_t = 0x636D_6170 // 'cmap'
        guard let blob = hb_face_reference_table(face, tag) else { return false }
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length) else { return false }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) }
        guard bytes.count >= 4 else { return false }
        let tables = u16(2)
        for index in 0..<tables {
            let record = 4 + 8 * index
            guard record + 8 <= bytes.count else { break }
            let platform = u16(record)
            let encoding = u16(record + 2)
            if (platform == 0 && encoding != 5) || (platform == 3 && (encoding == 1 || encoding == 10)) { return true }
        }
        return false
    }

    deinit {
        storage.deallocate()
    }

    /// The raw table, for the HarfBuzz callbacks (valid while `self` lives).
    var pointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(storage) }

    /// The raw table, for `glyph(_:in:)` in loops (valid while `self` lives).
    var table: UnsafePointer<UInt16> { UnsafePointer(storage) }

    /// The glyph of BMP scalar `scalar` (< 0x10000), 0 when not covered.
    @inline(__always)
    func glyph(_ scalar: UInt32) -> UInt16 {
        Self.glyph(scalar, in: storage)
    }

    @inline(__always)
    static func glyph(_ scalar: UInt32, in table: UnsafePointer<UInt16>) -> UInt16 {
        let slot = Int(table[Int(scalar >> 8)])
        return table[256 + slot &* 256 + Int(scalar & 0xFF)]
    }
}

extension NominalGlyphTable {
    /// HarfBuzz font functions that answer nominal-glyph queries from the
    /// table passed as font data, and everything else (including scalars
    /// beyond the BMP) from the parent font. Created once, immutable.
    static let fontFuncs: OpaquePointer? = {
        guard let funcs = hb_font_funcs_create() else { return nil }
        hb_font_funcs_set_nominal_glyph_func(funcs, { font, data, scalar, glyph, _ in
            guard let data, let glyph else { return 0 }
            if scalar > 0xFFFF { return hb_font_get_nominal_glyph(hb_font_get_parent(font), scalar, glyph) }
            let found = NominalGlyphTable.glyph(scalar, in: data.assumingMemoryBound(to: UInt16.self))
            glyph.pointee = hb_codepoint_t(found)
            return found != 0 ? 1 : 0
        }, nil, nil)
        hb_font_funcs_set_nominal_glyphs_func(funcs, { font, data, count, scalars, scalarStride, glyphs, glyphStride, _ in
            // Like HarfBuzz's: stops at the first scalar the font lacks, returns how many it mapped.
            guard let data, var scalar = scalars.map(UnsafeRawPointer.init),
                  var glyph = glyphs.map(UnsafeMutableRawPointer.init) else { return 0 }
            let table = data.assumingMemoryBound(to: UInt16.self)
            for done in 0..<count {
                let value = scalar.load(as: hb_codepoint_t.self)
                var found: hb_codepoint_t = 0
                if value <= 0xFFFF {
                    found = hb_codepoint_t(NominalGlyphTable.glyph(value, in: table))
                    if found == 0 { return done }
                } else if hb_font_get_nominal_glyph(hb_font_get_parent(font), value, &found) == 0 {
                    return done
                }
                glyph.storeBytes(of: found, as: hb_codepoint_t.self)
                scalar += Int(scalarStride)
                glyph += Int(glyphStride)
            }
            return count
        }, nil, nil)
        hb_font_funcs_make_immutable(funcs)
        return funcs
    }()
}
