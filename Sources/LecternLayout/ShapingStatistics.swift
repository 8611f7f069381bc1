// ShapingStatistics.swift: counters that make "shape once, break many" observable.

/// How much shaping a `Shaper` has done; lets tests and the server's `STATS`
/// prove that relayout at a new width does not reshape.
public struct ShapingStatistics: Hashable, Sendable {
    /// `ShapedText`s produced.
    public var textsShaped = 0
    /// HarfBuzz `hb_shape` calls made (one per run).
    public var runsShaped = 0
    /// Paragraphs copied from a previous result (`Shaper.shape(utf16:spec:reusing:)`).
    public var paragraphsReused = 0
}
