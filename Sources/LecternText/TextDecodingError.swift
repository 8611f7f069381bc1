// TextDecodingError.swift: why raw bytes could not become a document.

/// Raised when document bytes are not well-formed UTF-8.
///
/// Lectern never substitutes U+FFFD: a reader that taps a sentence must get
/// back exactly the text it stored, so ill-formed input is refused instead.
/// Overlong encodings, encoded surrogates (U+D800–U+DFFF), scalars above
/// U+10FFFF, stray continuation bytes and sequences cut short by the end of
/// the input are all ill-formed (Unicode 15, § 3.9, Table 3-7).
public enum TextDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The ill-formed sequence starts at this byte offset (0-based) of the input.
    case invalidUTF8(byteOffset: Int)
    /// The input is longer than ``DocumentText/maximumUTF8Length`` bytes.
    case tooLong(byteCount: Int)

    /// A stable code word for protocols and programs ("BADUTF8", "TOOLONG");
    /// ``description`` is the sentence for people.
    public var code: String {
        switch self {
        case .invalidUTF8: return "BADUTF8"
        case .tooLong: return "TOOLONG"
        }
    }

    public var description: String {
        switch self {
        case .invalidUTF8(let offset): return "invalid UTF-8 at byte \(offset)"
        case .tooLong(let count): return "text too long: \(count) bytes"
        }
    }
}
