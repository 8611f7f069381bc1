// String+OffsetRange.swift: protocol ranges as String.Index ranges.

extension String {
    /// The `String.Index` range of `range`, counted in `unit` from the start
    /// of the string, or `nil` when either end is past the end of the string
    /// or not on a boundary of the requested view (inside a surrogate pair,
    /// a UTF-8 sequence or, for ``OffsetUnit/grapheme``, past the end).
    ///
    /// The string must be the document's exact text (``DocumentText/text``),
    /// so that offsets from the daemon line up with it.
    ///
    /// ```swift
    /// let document = try await lectern.get("intro")
    /// if let r = document.text.range(sentence.content, in: .utf16) {
    ///     print(document.text[r])
    /// }
    /// ```
    ///
    /// - Complexity: O(n) in `range.upperBound` (String views are walked, not indexed).
    public func range(_ range: Range<Int>, in unit: OffsetUnit) -> Range<String.Index>? {
        guard let lower = index(atOffset: range.lowerBound, in: unit),
            let upper = index(atOffset: range.upperBound, in: unit)
        else { return nil }
        return lower..<upper
    }

    /// The `String.Index` of `offset` counted in `unit`, or `nil` when it is
    /// outside the string or not on a Unicode scalar boundary.
    ///
    /// - Complexity: O(n) in `offset`.
    public func index(atOffset offset: Int, in unit: OffsetUnit) -> String.Index? {
        guard offset >= 0 else { return nil }
        let candidate: String.Index?
        switch unit {
        case .utf16: candidate = utf16.index(utf16.startIndex, offsetBy: offset, limitedBy: utf16.endIndex)
        case .utf8: candidate = utf8.index(utf8.startIndex, offsetBy: offset, limitedBy: utf8.endIndex)
        case .scalar: candidate = unicodeScalars.index(unicodeScalars.startIndex, offsetBy: offset, limitedBy: unicodeScalars.endIndex)
        case .grapheme: candidate = index(startIndex, offsetBy: offset, limitedBy: endIndex)
        }
        return candidate?.samePosition(in: unicodeScalars)
    }

    /// The offset of `index` counted in `unit`: the inverse of
    /// ``index(atOffset:in:)``, for sending a position the app holds as a
    /// `String.Index` (a caret, a tap) to the daemon.
    ///
    /// - Complexity: O(n) in the distance from the start.
    public func offset(of index: String.Index, in unit: OffsetUnit) -> Int {
        switch unit {
        case .utf16: return utf16.distance(from: utf16.startIndex, to: index)
        case .utf8: return utf8.distance(from: utf8.startIndex, to: index)
        case .scalar: return unicodeScalars.distance(from: unicodeScalars.startIndex, to: index)
        case .grapheme: return distance(from: startIndex, to: index)
        }
    }
}
