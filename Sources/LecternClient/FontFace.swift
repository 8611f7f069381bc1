// FontFace.swift: a font that draws part of a view's text, from LINES runs=yes.

/// A font the layout used: `font 1 family="NanumGothic"
/// file="/usr/share/fonts/truetype/nanum/NanumGothic.ttf" index=0 graphemes=3 primary=no`.
/// What a client loads to draw the same glyphs the daemon measured: the
/// requested font and every fallback font that drew part of the text.
public struct FontFace: Hashable, Sendable {
    /// The font's family name, as VIEW's `fonts=` lists it.
    public var family: String
    /// The font file's path on the daemon's machine (a client elsewhere
    /// needs the same file, found by ``family`` or shipped with the app).
    public var file: String
    /// The face's index in ``file`` (above 0 only in collections such as `.ttc`).
    public var faceIndex: Int
    /// How many graphemes of the text it draws.
    public var graphemes: Int
    /// Whether it is VIEW's `font` (``ViewInfo/font``), whose metrics every line has.
    public var primary: Bool

    init(_ fields: ReplyFields) throws {
        guard try fields.word(at: 0) == "font" else { throw fields.malformed("not a font") }
        family = try fields.string("family")
        file = try fields.string("file")
        faceIndex = try fields.int("index")
        graphemes = try fields.int("graphemes")
        primary = try fields.bool("primary")
    }
}
