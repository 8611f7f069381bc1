// FontSpec.swift: what a view asks for: a family and a style, independent of size.

/// A font request: family name plus style. Size is not part of it, because
/// shaping is done in em units and scaled per view (see `ShapedText`).
///
/// The family is looked up through fontconfig, so generic names such as
/// `"sans-serif"` and `"serif"` work too. A family that is not installed is
/// replaced by fontconfig's default, and `FontResolution.isSubstitute` says so.
public struct FontSpec: Hashable, Sendable, CustomStringConvertible {
    /// Family name, e.g. `"DejaVu Sans"`, `"NanumGothic"`, `"serif"`.
    public var family: String
    /// CSS-style weight: 400 regular, 700 bold (100...900).
    public var weight: Int
    /// Italic (or oblique) style.
    public var italic: Bool

    public init(family: String, weight: Int = 400, italic: Bool = false) {
        self.family = family
        self.weight = weight
        self.italic = italic
    }

    /// The default used when a view names no family.
    public static let defaultSans = FontSpec(family: "sans-serif")

    public var description: String {
        "\(family) \(weight)\(italic ? " italic" : "")"
    }
}
