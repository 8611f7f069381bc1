// UTF8Validation.swift: where, if anywhere, a byte sequence stops being UTF-8.

/// The offset of the first byte that is not part of a well-formed UTF-8
/// sequence, or `nil` when all of `bytes` is valid UTF-8.
///
/// Well-formed means what Unicode § 3.9 (D92) and RFC 3629 mean: no overlong
/// forms, no surrogates (U+D800–U+DFFF), nothing above U+10FFFF, no truncated
/// sequence at the end. The offset is relative to `bytes.startIndex`.
///
/// - Complexity: O(n).
public func firstInvalidUTF8Offset<Bytes: Collection>(in bytes: Bytes) -> Int?
where Bytes.Element == UInt8 {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let encoded):
            offset += encoded.count
        case .emptyInput:
            return nil
        case .error:
            return offset
        }
    }
}
