// GraphemeFlags.swift: per-grapheme facts that line breaking needs, packed in a byte.

/// What line breaking must know about one grapheme cluster, computed once at
/// shaping time (width-independent).
struct GraphemeFlags: OptionSet, Sendable {
    let rawValue: UInt8

    /// UAX #14 allows a line break before this grapheme (ICU line iterator).
    static let breakBefore = GraphemeFlags(rawValue: 1 << 0)
    /// UAX #14 rule LB4/LB5 mandates a break before this grapheme (after BK, CR, LF, NL).
    static let hardBreakBefore = GraphemeFlags(rawValue: 1 << 1)
    /// A space that hangs past the line end instead of widening the line (CSS Text 3 § 4.1.3).
    static let hangingSpace = GraphemeFlags(rawValue: 1 << 2)
    /// LF, CR, CRLF or U+2029: ends a paragraph; zero width.
    static let paragraphSeparator = GraphemeFlags(rawValue: 1 << 3)
    /// U+2028, VT, FF or NEL: a hard line break inside a paragraph; zero width.
    static let lineSeparator = GraphemeFlags(rawValue: 1 << 4)

    /// Graphemes that never count towards a line's width when they end it.
    static let trailing: GraphemeFlags = [.hangingSpace, .paragraphSeparator, .lineSeparator]
}
