// CaretSide.swift: which half of a character a point fell on.

/// Which half of a character a point fell on.
public enum CaretSide: String, Hashable, Sendable {
    /// The half where the character starts (left in left-to-right text).
    case leading
    /// The half where it ends.
    case trailing
}
