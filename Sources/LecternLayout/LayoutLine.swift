// LayoutLine.swift: one row of the line table.

/// One line of a `TextLayout`: what it holds and where it is drawn.
///
/// Line boxes tile: each line's `top + height` is the next line's `top`,
/// except after a paragraph's last line, where `paragraphSpacing` follows.
public struct LayoutLine: Hashable, Sendable {
    /// UTF-16 range, including trailing spaces and the paragraph separator.
    public var textRange: Range<Int>
    /// Grapheme indices of `textRange`.
    public var graphemes: Range<Int>
    /// End of the visible content: graphemes from here to `graphemes.upperBound`
    /// are hanging spaces or separators (they never widen the line or a highlight).
    public var contentEnd: Int
    /// Indices into `TextLayout.attachments` of the attachments on this line.
    public var attachments: Range<Int>
    /// Index into `ShapedText.paragraphs`.
    public var paragraph: Int
    /// Top of the line box.
    public var top: Double
    /// Height of the line box.
    public var height: Double
    /// Baseline y.
    public var baseline: Double
    /// Left edge of the visible content.
    public var x: Double
    /// Width of the visible content (hanging whitespace excluded).
    public var width: Double
    /// True for the last line of its paragraph.
    public var endsParagraph: Bool
    /// True when the paragraph's base direction is right-to-left (the line is right-aligned).
    public var isRightToLeft: Bool

    /// Bottom of the line box.
    public var bottom: Double { top + height }
}
