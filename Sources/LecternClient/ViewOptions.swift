// ViewOptions.swift: the layout spec of a view, as VIEW takes it.

/// How a document is laid out in this connection's view (VIEW's arguments).
/// Only ``width`` is required; `nil` leaves the daemon's default.
///
/// ```swift
/// var options = ViewOptions(width: 320, size: 18, font: "Noto Sans CJK KR")
/// options.lineHeight = .multiple(1.5)
/// options.insets = EdgeInsets(vertical: 10, horizontal: 16)
/// ```
public struct ViewOptions: Hashable, Sendable {
    /// Width in points, insets included (above 0, at most 100,000).
    public var width: Double
    /// Font size in points (default 17).
    public var size: Double?
    /// A fontconfig family name (default `sans-serif`); missing characters
    /// fall back per character to installed fonts.
    public var font: String?
    /// Font weight, 1 to 1000.
    public var weight: Int?
    /// Italic or upright.
    public var italic: Bool?
    /// Line height (default: the font's own).
    public var lineHeight: LineHeight?
    /// Space added after each paragraph but the last, in points.
    public var paragraphSpacing: Double?
    /// Space between the view's edges and the text.
    public var insets: EdgeInsets?

    /// A view `width` points wide; every `nil` leaves the daemon's default.
    public init(
        width: Double, size: Double? = nil, font: String? = nil, weight: Int? = nil, italic: Bool? = nil,
        lineHeight: LineHeight? = nil, paragraphSpacing: Double? = nil, insets: EdgeInsets? = nil
    ) {
        self.width = width
        self.size = size
        self.font = font
        self.weight = weight
        self.italic = italic
        self.lineHeight = lineHeight
        self.paragraphSpacing = paragraphSpacing
        self.insets = insets
    }

    /// The options as VIEW's `key=value` arguments.
    var arguments: [(String, String)] {
        var arguments = [("width", WireValue.number(width))]
        if let size { arguments.append(("size", WireValue.number(size))) }
        if let font { arguments.append(("font", font)) }
        if let weight { arguments.append(("weight", String(weight))) }
        if let italic { arguments.append(("italic", italic ? "yes" : "no")) }
        if let lineHeight { arguments.append(("line-height", lineHeight.wire)) }
        if let paragraphSpacing { arguments.append(("paragraph-spacing", WireValue.number(paragraphSpacing))) }
        if let insets { arguments.append(("insets", insets.wire)) }
        return arguments
    }
}
