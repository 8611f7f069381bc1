// DocumentText.swift: a validated paragraph document and its index maps.

/// The text of a document: validated UTF-8 decoded once into UTF-16 (the
/// canonical offset unit), split into paragraphs, with an ``IndexMap`` for
/// converting offsets to and from UTF-8, scalars and graphemes.
///
/// ```swift
/// let doc = try DocumentText(utf8: Array("One. Two.\nThree.".utf8))
/// doc.paragraphs.count                // 2
/// let table = SentenceTable(document: doc)
/// ```
///
/// Edge cases: empty text has no paragraphs; see ``Paragraph`` for which
/// characters separate paragraphs. Values are immutable and `Sendable`.
///
/// - Complexity: construction is one O(n) pass over the bytes.
public struct DocumentText: Sendable {
    /// The longest input accepted, in UTF-8 bytes: offsets are stored as
    /// Int32 (as ICU indexes), and UTF-16 is never longer than UTF-8.
    public static let maximumUTF8Length = Int(Int32.max)

    /// The text as UTF-16 code units.
    public let utf16: [UInt16]
    /// The paragraphs in order; their ranges tile the text.
    public let paragraphs: [Paragraph]
    /// Offset conversions between UTF-16 and the other ``OffsetUnit``s.
    public let indexMap: IndexMap
    /// The offset just after the text's last character that is not white
    /// space or a line end (0 for a text of only those): where the text
    /// visibly ends, and so where an attachment glued to its end goes.
    public let trimmedEnd: Int

    /// Decodes and validates UTF-8 bytes.
    /// - Throws: ``TextDecodingError/invalidUTF8(byteOffset:)`` with the offset
    ///   of the first ill-formed sequence; nothing is ever replaced.
    public init(utf8 bytes: [UInt8]) throws(TextDecodingError) {
        let decoded: DecodedText
        do {
            decoded = try bytes.withUnsafeBufferPointer { buffer in try TextDecoder.decode(buffer) }
        } catch let error as TextDecodingError {
            throw error
        } catch {
            preconditionFailure("TextDecoder throws only TextDecodingError")
        }
        self.init(decoded)
    }

    /// Builds a document from a Swift string (always valid Unicode).
    public init(_ string: String) {
        var string = string
        string.makeContiguousUTF8()
        do {
            self.init(try string.withUTF8 { buffer in try TextDecoder.decode(buffer) })
        } catch {
            preconditionFailure("a Swift String is valid UTF-8 within limits: \(error)")
        }
    }

    private init(_ decoded: DecodedText) {
        utf16 = decoded.utf16
        paragraphs = decoded.paragraphs
        indexMap = decoded.indexMap
        var end = utf16.count
        while end > 0, CharacterClass.isWhiteSpace(utf16[end - 1]) { end -= 1 }
        trimmedEnd = end
    }

    /// The text in a UTF-16 range, as a String (clamped to the text).
    public func text(in range: Range<Int>) -> String {
        let clamped = range.clamped(to: 0..<utf16.count)
        return String(decoding: utf16[clamped], as: UTF16.self)
    }

    /// The whole text.
    public var string: String { String(decoding: utf16, as: UTF16.self) }


    /// Whether a UTF-16 code unit is white space or a line end (Unicode
    /// White_Space), as ``trimmedEnd`` and ``Paragraph``'s rules read it.
    public static func isWhiteSpace(_ unit: UInt16) -> Bool { CharacterClass.isWhiteSpace(unit) }

    /// The index of the paragraph containing a UTF-16 offset, or nil outside
    /// the text (the end offset belongs to the last paragraph).
    /// - Complexity: O(log p).
    public func paragraphIndex(containing offset: Int) -> Int? {
        guard !paragraphs.isEmpty, offset >= 0, offset <= utf16.count else { return nil }
        var low = 0, high = paragraphs.count
        while low < high {
            let mid = (low + high) / 2
            if paragraphs[mid].range.upperBound <= offset { low = mid + 1 } else { high = mid }
        }
        return min(low, paragraphs.count - 1)
    }
}
