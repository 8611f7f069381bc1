// DocumentText.swift: a document's exact text and facts, from GET.

/// A document's exact text and its facts, from GET.
public struct DocumentText: Hashable, Sendable {
    /// The text, byte for byte as stored (always valid UTF-8).
    public var bytes: [UInt8]
    /// The facts.
    public var info: DocumentInfo

    /// The text as a Swift string, for ``Swift/String/range(_:in:)``.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
