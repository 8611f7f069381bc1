// SentenceMode.swift: which sentence rules a table is built with.

/// How a ``SentenceTable`` finds sentence boundaries.
public enum SentenceMode: String, CaseIterable, Sendable {
    /// Exactly Unicode's UAX #29 sentence boundaries, from ICU's root
    /// sentence iterator (conformance: every case of SentenceBreakTest.txt).
    case uax29
    /// UAX #29 tailored for reading, per language: abbreviations, initials,
    /// numbers, ellipses, URLs, quotations, lists, CJK and Korean endings.
    /// See ``ReaderSegmenter``. The default.
    case reader
}
