// ShapedParagraph.swift: one paragraph's graphemes and base direction.

/// A paragraph of a shaped text: its graphemes (including the separator
/// that ends it) and its UAX #9 base level (0 left-to-right, 1 right-to-left).
public struct ShapedParagraph: Hashable, Sendable {
    /// Indices into the text's graphemes.
    public var graphemes: Range<Int>
    /// Base embedding level: even is left-to-right, odd right-to-left.
    public var baseLevel: UInt8

    public var isRightToLeft: Bool { baseLevel & 1 == 1 }
}
