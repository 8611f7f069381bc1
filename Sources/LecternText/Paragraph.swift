// Paragraph.swift: one paragraph of a document, with and without its separator.

/// A paragraph of a ``DocumentText``, in UTF-16 offsets.
///
/// Paragraphs are separated by LF, CR LF or U+2029 PARAGRAPH SEPARATOR. A
/// lone CR, U+0085 NEL and U+2028 LINE SEPARATOR do not separate paragraphs
/// (UAX #29 still ends a sentence after them in ``SentenceMode/uax29`` mode).
/// The separator belongs to the paragraph it ends; a separator at the very
/// end of the text does not open an empty last paragraph, so "a\n" has one
/// paragraph and "a\n\n" has two, the second being just "\n".
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
