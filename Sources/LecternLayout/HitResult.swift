// HitResult.swift: what a point in a view lands on.

/// The answer to "what is under this point?" (`TextLayout.hitTest(x:y:)`).
///
/// Use `grapheme` to find the character (and so the sentence) that was
/// tapped, `offset` to place a caret, and `distance` to ignore taps far from
/// any text.
public struct HitResult: Hashable, Sendable {
    /// Which half of a grapheme the point fell in, in reading order: the
    /// leading half is the left half of left-to-right text and the right half
    /// of right-to-left text.
    public enum Side: String, Hashable, Sendable {
        case leading
        case trailing
    }

    /// The caret position nearest the point: a grapheme boundary (UTF-16).
    /// At the end of a wrapped line this is the next line's start (upstream affinity).
    public var offset: Int
    /// UTF-16 range of the grapheme under the point, or the nearest one on
    /// the line (hanging spaces and separators map to the last visible
    /// grapheme before them). Empty only on a line without graphemes.
    public var grapheme: Range<Int>
    /// The half of `grapheme` (or of the attachment) that was hit.
    public var side: Side
    /// True when the point is inside a glyph's or attachment's box on its line (line box height).
    public var isInside: Bool
    /// Distance in points from the point to that box; 0 when inside.
    public var distance: Double
    /// Index of the line that was hit.
    public var line: Int
    /// Index into `TextLayout.attachments` when the point is on an attachment.
    public var attachment: Int?
}
