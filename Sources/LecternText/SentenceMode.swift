// SentenceMode.swift: which sentence rules a table is built with.

/// How a ``SentenceTable`` finds sentence boundaries.
public enum SentenceMode: String, CaseIterable, Sendable {
    /// Exactly Unicode's UAX #29 sentence boundaries, from ICU's root
    /// sentence iterator (conformance: every case of SentenceBreakTest.txt).
    case uax29
    /// Boundaries tailored for reading, per language (the default). Lectern's
    /// own single-pass scanner finds UAX #29-style candidates (terminators,
    /// closing punctuation, spaces) and decides each from its neighbourhood:
    /// abbreviations (Moses non-breaking-prefix lists, read at run time from
    /// Debian's liblingua-sentence-perl, plus Lectern's supplements), initials,
    /// numbers and versions, ellipses, URLs and file names, quotations and
    /// brackets, CJK terminators, Spanish ¿¡, run-in lists, and Korean
    /// sentences that end without punctuation. ICU is not involved.
    case reader
}
