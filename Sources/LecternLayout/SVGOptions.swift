// SVGOptions.swift: what an SVG rendering of a view shows besides the text.

/// Extras drawn over a view's text by `TextLayout.renderSVG(_:)`.
public struct SVGOptions: Sendable {
    /// Sentence ranges (UTF-16): a thin mark is drawn at each sentence's start.
    public var sentences: [Range<Int>]
    /// Ranges to highlight: their rects filled, their outlines dashed.
    public var highlights: [Range<Int>]
    /// Offset of a caret to draw, if any.
    public var caret: Int?
    /// Draw every line box and baseline (for debugging layouts).
    public var showLineBoxes: Bool

    public init(
        sentences: [Range<Int>] = [], highlights: [Range<Int>] = [], caret: Int? = nil, showLineBoxes: Bool = false
    ) {
        self.sentences = sentences
        self.highlights = highlights
        self.caret = caret
        self.showLineBoxes = showLineBoxes
    }
}
