// FontResolution.swift: what a FontSpec resolved to, and whether it was a substitute.

/// The outcome of looking up a `FontSpec`: the primary font, and whether the
/// requested family was installed.
///
/// A missing family never fails: fontconfig's best match (its default
/// sans-serif face) is used instead and `isSubstitute` is true, so the server
/// can say so in its reply (`font=substituted`).
public struct FontResolution: Sendable {
    /// What was asked for.
    public let spec: FontSpec
    /// The font used for every character it covers; others fall back per character.
    public let primary: Font
    /// True when `spec.family` is not installed and `primary` is a default.
    public let isSubstitute: Bool

    /// The family actually used for the primary font.
    public var matchedFamily: String { primary.family }
}
