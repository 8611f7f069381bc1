// InlineAttachment.swift: an inline box (image, animation) placed at a text offset.

/// A box drawn inline with the text at a UTF-16 offset, taking part in line
/// breaking and hit-testing like a glyph.
///
/// The box sits just before the grapheme that starts at `offset` (or after
/// the last grapheme when `offset` is the text length). It is glued to that
/// position: a line can break before it only where the text itself allows a
/// break (UAX #14), so an attachment right after a word, with no space,
/// moves to the next line together with that word.
///
/// For selection it belongs to the text before it: a range `a..<b` includes
/// the attachment when `a < offset <= b` (or `offset == 0 == a`).
public struct InlineAttachment: Hashable, Sendable {
    /// Client-chosen name, reported back in hit results.
    public var name: String
    /// UTF-16 offset, 0...text length (clamped and rounded down to a grapheme boundary by layout).
    public var offset: Int
    public var width: Double
    public var height: Double
    /// How far the box's bottom edge lies below the baseline (0 = sits on the baseline).
    public var baselineOffset: Double

    public init(name: String, offset: Int, width: Double, height: Double, baselineOffset: Double = 0) {
        self.name = name
        self.offset = offset
        self.width = width
        self.height = height
        self.baselineOffset = baselineOffset
    }

    /// Height above the baseline.
    var ascent: Double { max(0, height - baselineOffset) }
    /// Depth below the baseline.
    var descent: Double { max(0, baselineOffset) }
}
