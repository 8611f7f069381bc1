// ShapedRun.swift: a maximal span shaped in one HarfBuzz call (one font, script and direction).

/// A span of graphemes shaped together: same font, script and BiDi level.
public struct ShapedRun: Hashable, Sendable {
    /// Indices into the text's graphemes.
    public var graphemes: Range<Int>
    /// Index into `ShapedText.fonts`.
    public var fontIndex: Int
    /// BiDi embedding level (odd = right-to-left).
    public var level: UInt8
    /// The HarfBuzz script (`hb_script_t`) the run was shaped with; 0 when
    /// HarfBuzz guessed it from the run's text (Common and Inherited runs).
    /// Kept so that the glyphs can be shaped again exactly (``TextLayout/renderSVG(_:)``).
    public var script: UInt32 = 0
}
