// LineHeight.swift: how tall a line box is (CSS 2.2 § 10.8 line-height, with half-leading).

/// How the height of each line box is chosen. The difference between the
/// line height and the content's ascent + descent (the leading) is split
/// half above and half below (CSS 2.2 § 10.8.1), so line boxes tile with no
/// gaps and the baseline sits in the same place whatever the mode.
public enum LineHeight: Hashable, Sendable {
    /// The fonts' ascent + descent + line gap (CSS `line-height: normal`),
    /// taking the largest ascent and descent of the fonts and attachments on the line.
    case fontDefault
    /// A multiple of the `fontDefault` height (1.5 = "one and a half spacing").
    case multiple(Double)
    /// A fixed height in points, whatever the content (content may overflow the box).
    case absolute(Double)
}
