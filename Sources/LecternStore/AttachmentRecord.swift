// AttachmentRecord.swift: one inline attachment of a stored document.

/// An inline attachment (an image, a figure, a widget) placed in a document's
/// text, as the store keeps it: a name unique within its document, where it
/// sits in the text, and the box the layout reserves for it.
///
/// The store does not interpret the values beyond validating them (see
/// ``validate()``); in particular it does not check that `utf16Offset` falls
/// inside the text, because the store keeps text as bytes and never decodes it.
public struct AttachmentRecord: Hashable, Sendable, Codable {
    /// The attachment's name, unique within its document; compared byte for
    /// byte in UTF-8 (an NFC and an NFD spelling are different names).
    public var name: String
    /// Where the attachment sits in the text, in UTF-16 code units (the
    /// canonical offset unit of Lectern).
    public var utf16Offset: Int
    /// Width of the reserved box, in points.
    public var width: Double
    /// Height of the reserved box, in points.
    public var height: Double
    /// The vertical placement the client gave (for the daemon: how far the
    /// box's bottom sits below the baseline), in points.
    public var baseline: Double
    /// Whether the attachment is glued to the end of the text, whatever the
    /// text becomes (`ATTACH … at=end`); `utf16Offset` is then the text's
    /// length when it was stored.
    public var followsTextEnd: Bool

    /// Creates an attachment record; see ``validate()`` for what the stores accept.
    public init(
        name: String, utf16Offset: Int, width: Double, height: Double, baseline: Double,
        followsTextEnd: Bool = false
    ) {
        self.name = name
        self.utf16Offset = utf16Offset
        self.width = width
        self.height = height
        self.baseline = baseline
        self.followsTextEnd = followsTextEnd
    }

    /// Checks what every store requires of an attachment: a non-empty name,
    /// a non-negative offset, and finite geometry (SQLite would silently turn
    /// a NaN into NULL, so NaN and infinities are refused everywhere alike).
    ///
    /// - Throws: ``DocumentStoreError`` with code `.invalidArgument`.
    public func validate() throws(DocumentStoreError) {
        if name.isEmpty {
            throw DocumentStoreError(.invalidArgument, "an attachment needs a non-empty name")
        }
        if utf16Offset < 0 {
            throw DocumentStoreError(
                .invalidArgument, "attachment '\(name)' has a negative offset \(utf16Offset)")
        }
        for (label, value) in [("width", width), ("height", height), ("baseline", baseline)]
        where !value.isFinite {
            throw DocumentStoreError(
                .invalidArgument, "attachment '\(name)' has a \(label) that is not a finite number")
        }
    }
}
