// Paragraph.swift: one paragraph of a document, with and without its separator.

/// A paragraph of a ``DocumentText``, in UTF-16 offsets.
///
/// Paragraphs are separated by LF, CR LF or U+2029 PARAGRAPH SEPARATOR. A
/// lone CR, U+0085 NEL and U+2028 LINE SEPARATOR do not separate paragraphs
/// (UAX #29 still ends a sentence after them in ``SentenceMode/uax29`` mode).
/// The separator belongs to the paragraph it ends.
///
/// Trailing line ends close the last paragraph and open none: the line ends
/// and white space after the text's last character that is not white space
/// (from the first separator among them) are the last paragraph's
/// separator. So "a\n", "a\n\n" and "a\n \n" each have one paragraph,
/// whose content is "a"; "a\n\nb" has three, the middle one blank. A text
/// of only white space and line ends is one blank paragraph. Layout follows
/// the same rule (no empty line after the last one), and so do sentences
/// (no empty sentence at the end).
public struct Paragraph: Equatable, Hashable, Sendable {
    /// The whole paragraph, separator included. Paragraph ranges are
    /// contiguous and cover the document.
    public let range: Range<Int>
    /// The paragraph without its separator.
    public let content: Range<Int>

    public init(range: Range<Int>, content: Range<Int>) {
        self.range = range
        self.content = content
    }
}

extension Array where Element == Paragraph {
    /// Folds the blank paragraphs at the end (only white space and line
    /// ends) into the last paragraph before them, whose separator they
    /// become (see ``Paragraph``): they close it and open no paragraph.
    ///
    /// - Complexity: O(w) for the white space at the end of `text`.
    mutating func foldTrailingBlankParagraphs(in text: UnsafeBufferPointer<UInt16>) {
        guard count > 1, let end = last?.range.upperBound else { return }
        var kept = count - 1
        while kept > 0, text[self[kept].range].allSatisfy(CharacterClass.isWhiteSpace) { kept -= 1 }
        guard kept < count - 1 else { return }
        self[kept] = Paragraph(range: self[kept].range.lowerBound..<end, content: self[kept].content)
        removeLast(count - 1 - kept)
    }
}
