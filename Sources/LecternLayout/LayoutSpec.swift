// LayoutSpec.swift: everything about a view that decides where lines fall.

/// The parameters of a view's layout: with a `ShapedText` they determine the
/// line table completely. Two views with equal specs share one `TextLayout`.
///
/// Invalid numbers are clamped rather than rejected: a negative or NaN width
/// becomes 0 (one grapheme per line), a font size below `minimumFontSize`
/// becomes that minimum.
public struct LayoutSpec: Hashable, Sendable {
    /// The smallest font size accepted, in points.
    public static let minimumFontSize = 1.0
    /// The largest font size accepted, in points.
    public static let maximumFontSize = 1000.0

    /// Font family and style (the key of the shaping cache).
    public var font: FontSpec
    /// View width in points, insets included.
    public var width: Double
    /// Font size in points (em size).
    public var fontSize: Double
    public var lineHeight: LineHeight
    /// Extra space after each paragraph but the last, in points.
    public var paragraphSpacing: Double
    public var insets: EdgeInsets

    public init(
        font: FontSpec = .defaultSans, width: Double, fontSize: Double, lineHeight: LineHeight = .fontDefault,
        paragraphSpacing: Double = 0, insets: EdgeInsets = .zero
    ) {
        self.font = font
        self.width = width
        self.fontSize = fontSize
        self.lineHeight = lineHeight
        self.paragraphSpacing = paragraphSpacing
        self.insets = insets
    }

    /// Font size clamped to `minimumFontSize...maximumFontSize`.
    var effectiveFontSize: Double {
        fontSize.isNaN ? Self.minimumFontSize : min(max(fontSize, Self.minimumFontSize), Self.maximumFontSize)
    }

    /// Width available to text: view width minus left and right insets, never negative.
    var lineWidth: Double {
        let value = width - insets.left - insets.right
        return value.isNaN ? 0 : max(0, value)
    }
}
