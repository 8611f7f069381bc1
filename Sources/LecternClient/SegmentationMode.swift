// SegmentationMode.swift: how a document is split into sentences.

/// How a document is split into sentences (PUT `mode=`).
public enum SegmentationMode: String, Hashable, Sendable {
    /// Splitting tailored for reading: abbreviations, numbers, quotations, Korean endings.
    case reader
    /// Exactly Unicode's UAX #29 sentence boundaries.
    case uax29
}
