// OffsetUnit.swift: what the offsets of a connection count.

/// The unit every offset and range on a connection counts, chosen with
/// ``LecternConnection/hello(name:units:)`` (protocol/PROTOCOL.md, "Offset units").
///
/// Pick the unit your text APIs speak: ``utf16`` for `NSString`/`NSRange`,
/// UIKit and JavaScript; ``grapheme`` to index a Swift `String` by
/// `Character`; ``scalar`` for `String.unicodeScalars`; ``utf8`` for bytes.
/// ``Swift/String/range(_:in:)`` turns a range in any of them into a
/// `Range<String.Index>`.
public enum OffsetUnit: String, Hashable, Sendable, CaseIterable {
    /// UTF-16 code units, the daemon's default.
    case utf16
    /// UTF-8 bytes.
    case utf8
    /// Unicode scalar values (code points).
    case scalar
    /// Extended grapheme clusters: Swift `Character`s.
    case grapheme
}
