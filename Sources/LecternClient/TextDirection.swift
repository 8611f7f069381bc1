// TextDirection.swift: which way a run's glyphs go.

/// Which way a run's glyphs go (its bidi direction, UAX #9).
public enum TextDirection: String, Hashable, Sendable {
    /// Left to right (Latin, Hangul, digits).
    case ltr
    /// Right to left (Arabic, Hebrew): the run's first character is drawn at its right end.
    case rtl
}
