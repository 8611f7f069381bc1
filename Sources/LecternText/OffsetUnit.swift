// OffsetUnit.swift: the units a client may count text positions in.

/// A unit for counting positions in a document, negotiated per connection the
/// way LSP negotiates position encodings.
///
/// Lectern's canonical unit is ``utf16`` (what ICU, HarfBuzz and NSRange
/// speak); every other unit is converted through a document's ``IndexMap``.
public enum OffsetUnit: String, CaseIterable, Sendable {
    /// UTF-16 code units (canonical). A supplementary-plane scalar counts 2.
    case utf16
    /// UTF-8 bytes, as stored and sent on the wire.
    case utf8
    /// Unicode scalar values (code points other than surrogates).
    case scalar
    /// Extended grapheme clusters, exactly Swift's `Character` boundaries.
    case grapheme
}

/// Why an offset could not be converted between units.
///
/// Offsets are never rounded: an offset in the middle of a UTF-8 sequence,
/// between the two halves of a surrogate pair, or inside a grapheme cluster
/// (when converting to graphemes) does not name a position a user could see.
public enum OffsetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offset is negative or beyond the end of the text in that unit.
    case outOfBounds(offset: Int, unit: OffsetUnit, length: Int)
    /// The offset lies inside a code-unit sequence or a cluster of `unit`.
    case notOnBoundary(offset: Int, unit: OffsetUnit)

    /// A stable code word for protocols and programs ("RANGE", "NOTBOUNDARY");
    /// ``description`` is the sentence for people.
    public var code: String {
        switch self {
        case .outOfBounds: return "RANGE"
        case .notOnBoundary: return "NOTBOUNDARY"
        }
    }

    public var description: String {
        switch self {
        case let .outOfBounds(offset, unit, length):
            return "offset \(offset) out of bounds 0...\(length) (\(unit.rawValue))"
        case let .notOnBoundary(offset, unit):
            return "offset \(offset) is not on a \(unit.rawValue) boundary"
        }
    }
}
