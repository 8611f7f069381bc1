// IndexMap.swift: conversions between UTF-16 offsets and the other units.

/// Precomputed conversions between a document's canonical UTF-16 offsets and
/// UTF-8 bytes, Unicode scalars and grapheme clusters.
///
/// Built once, in the same pass that decodes the document, and never by
/// rescanning text afterwards. An offset converts only if it names a boundary
/// in both units: UTF-16 offset 1 of "é" written as U+0065 U+0301 is a scalar
/// boundary but lies inside a grapheme, so converting it to ``OffsetUnit/grapheme``
/// throws ``OffsetError/notOnBoundary(offset:unit:)``. The end of the text is a
/// valid offset in every unit.
///
/// ```swift
/// let doc = DocumentText("añ👍")
/// try doc.indexMap.convert(2, from: .utf16, to: .utf8)   // 3 ("a" 1 + "ñ" 2)
/// try doc.indexMap.convert(3, from: .scalar, to: .utf16) // 4 (👍 is 2 units)
/// try doc.indexMap.convert(3, from: .utf16, to: .scalar) // throws: inside 👍
/// ```
///
/// - Complexity: O(log n) per conversion (UTF-8 conversions also read at most
///   64 code units past a breadcrumb, see ``UTF8Breadcrumbs``); memory is 8
///   bytes per 64 code units plus the surrogate pairs and multi-unit
///   clusters, which plain text has few of.
public struct IndexMap: Sendable {
    let utf8Breadcrumbs: UTF8Breadcrumbs
    /// The text, shared with the document (copy-on-write, never copied).
    let utf16: [UInt16]
    let surrogatePairs: CollapsedSpanMap
    let clusters: CollapsedSpanMap
    /// The text's length in UTF-16 code units.
    public let utf16Length: Int
    /// The text's length in UTF-8 bytes.
    public let utf8Length: Int

    init(utf16: [UInt16], utf8Breadcrumbs: UTF8Breadcrumbs, surrogatePairs: CollapsedSpanMap,
         clusters: CollapsedSpanMap, utf8Length: Int) {
        self.utf16 = utf16
        self.utf8Breadcrumbs = utf8Breadcrumbs
        self.surrogatePairs = surrogatePairs
        self.clusters = clusters
        self.utf16Length = utf16.count
        self.utf8Length = utf8Length
    }

    /// The text's length counted in `unit`.
    /// - Complexity: O(1).
    public func length(in unit: OffsetUnit) -> Int {
        switch unit {
        case .utf16: return utf16Length
        case .utf8: return utf8Length
        case .scalar: return utf16Length - surrogatePairs.totalRemoved
        case .grapheme: return utf16Length - clusters.totalRemoved
        }
    }

    /// The UTF-16 offset of `offset` counted in `unit`.
    /// - Throws: ``OffsetError`` when out of bounds or inside a UTF-8 sequence.
    /// - Complexity: O(log n).
    public func utf16Offset(of offset: Int, in unit: OffsetUnit) throws(OffsetError) -> Int {
        let length = length(in: unit)
        guard offset >= 0, offset <= length else {
            throw .outOfBounds(offset: offset, unit: unit, length: length)
        }
        switch unit {
        case .utf16: return offset
        case .utf8:
            guard let result = utf8Breadcrumbs.utf16(fromUTF8: offset, in: utf16) else {
                throw .notOnBoundary(offset: offset, unit: .utf8)
            }
            return result
        case .scalar: return surrogatePairs.utf16(fromCollapsed: offset)
        case .grapheme: return clusters.utf16(fromCollapsed: offset)
        }
    }

    /// The offset in `unit` of a UTF-16 offset.
    /// - Throws: ``OffsetError`` when out of bounds, between surrogate halves,
    ///   or (for graphemes) inside a cluster.
    /// - Complexity: O(log n).
    public func offset(ofUTF16 offset: Int, in unit: OffsetUnit) throws(OffsetError) -> Int {
        guard offset >= 0, offset <= utf16Length else {
            throw .outOfBounds(offset: offset, unit: .utf16, length: utf16Length)
        }
        if unit == .utf16 { return offset }
        // A position between surrogate halves is no boundary in any unit.
        guard let scalarOffset = surrogatePairs.collapsed(fromUTF16: offset) else {
            throw .notOnBoundary(offset: offset, unit: .utf16)
        }
        switch unit {
        case .utf16: return offset
        case .scalar: return scalarOffset
        case .utf8:
            guard let result = utf8Breadcrumbs.utf8(fromUTF16: offset, in: utf16) else {
                throw .notOnBoundary(offset: offset, unit: .utf16)
            }
            return result
        case .grapheme:
            guard let result = clusters.collapsed(fromUTF16: offset) else {
                throw .notOnBoundary(offset: offset, unit: .grapheme)
            }
            return result
        }
    }

    /// Converts `offset` from one unit to another through UTF-16.
    /// - Throws: ``OffsetError`` when the offset is out of bounds or is not a
    ///   boundary in either unit; never rounds.
    /// - Complexity: O(log n).
    public func convert(_ offset: Int, from source: OffsetUnit, to target: OffsetUnit) throws(OffsetError) -> Int {
        let utf16 = try utf16Offset(of: offset, in: source)
        return try self.offset(ofUTF16: utf16, in: target)
    }

    /// Converts both ends of a range; see ``convert(_:from:to:)``.
    public func convert(_ range: Range<Int>, from source: OffsetUnit, to target: OffsetUnit) throws(OffsetError) -> Range<Int> {
        let lower = try convert(range.lowerBound, from: source, to: target)
        let upper = try convert(range.upperBound, from: source, to: target)
        return lower..<upper
    }
}
