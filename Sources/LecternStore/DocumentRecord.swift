// DocumentRecord.swift: what a client hands the store to keep.

/// A document as the caller gives it to ``DocumentStore/put(_:)``: the exact
/// bytes of its text and what is needed to rebuild its sentence table and
/// layouts after a restart.
///
/// Ids compare byte for byte in UTF-8, as SQLite's `BINARY` collation does:
/// `"caf\u{E9}"` and `"cafe\u{301}"` are two different documents even though
/// Swift's `==` calls the strings equal.
public struct DocumentRecord: Hashable, Sendable, Codable {
    /// The document's id; any non-empty string.
    public var id: String
    /// The text as exact UTF-8 bytes; stored and returned unchanged, even if
    /// they are not valid UTF-8 (the protocol layer validates, not the store).
    public var text: [UInt8]
    /// The language tag used for segmentation (BCP 47, e.g. `"en"`), or `nil`
    /// for the daemon's default.
    public var language: String?
    /// The segmentation mode the sentence table was built with (e.g. `"sentence"`).
    public var segmentation: String
    /// The document's inline attachments, in the order they were given; names
    /// are unique.
    public var attachments: [AttachmentRecord]

    /// Creates a document record; see ``validate()`` for what the stores accept.
    public init(
        id: String, text: [UInt8], language: String? = nil, segmentation: String,
        attachments: [AttachmentRecord] = []
    ) {
        self.id = id
        self.text = text
        self.language = language
        self.segmentation = segmentation
        self.attachments = attachments
    }

    /// Checks what every store requires of a document: a non-empty id, and
    /// valid attachments (``AttachmentRecord/validate()``) with distinct names.
    ///
    /// - Throws: ``DocumentStoreError`` with code `.invalidArgument`.
    /// - Complexity: O(*a*) for *a* attachments.
    public func validate() throws(DocumentStoreError) {
        if id.isEmpty {
            throw DocumentStoreError(.invalidArgument, "a document needs a non-empty id")
        }
        var names = Set<[UInt8]>()
        for attachment in attachments {
            try attachment.validate()
            if !names.insert(Array(attachment.name.utf8)).inserted {
                throw DocumentStoreError(
                    .invalidArgument,
                    "document '\(id)' has two attachments named '\(attachment.name)'")
            }
        }
    }
}
