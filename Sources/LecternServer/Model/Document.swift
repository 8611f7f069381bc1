// Document.swift: one stored document and what is derived from it.

import LecternLayout
import LecternStore
import LecternText

/// A document: its text, sentence table and attachments, plus its caches
/// (``layouts``: shaping per font, layouts per spec, their highlights).
/// Who watches it, selects in it or types it is in ``ReaderRegistry``.
///
/// The text and sentence table are immutable values; an edit replaces both,
/// takes the revision the store gave the write and renews the caches'
/// stamp, which drops them. Loop thread only.
final class Document {
    let id: String
    /// Unique in this process and never reused (unlike an object's
    /// address): ``ReaderRegistry`` keys readers' state by it, so a new
    /// document under a deleted one's id starts clean.
    let serial = LayoutCache.uniqueNumber()
    private(set) var text: DocumentText
    private(set) var sentences: SentenceTable
    /// The language the client gave, if any (else it was detected).
    private(set) var requestedLanguage: Language?
    private(set) var mode: SentenceMode
    /// The store's revision of the write that made this version (every
    /// change of text or attachments is one): store-wide and increasing
    /// (``StoredDocument/revision``), so a document's (id, revision) never
    /// repeats, across restarts and DEL + PUT. The wire's `revision=`.
    private(set) var revision: Int
    private(set) var attachments: [AttachmentRecord] = []
    /// The view used by connections that have not set their own (set with
    /// `VIEW … default=yes`): stateless clients can then TAP straight away.
    /// One object, changed in place (``setDefaultView(_:)``), so that what
    /// holds it (``Session/RememberedView``) sees a change.
    private(set) var defaultView: View?
    /// Shaping, layouts and highlights, and the stamp they are checked against.
    let layouts = LayoutCache()

    init(id: String, content: DocumentContent, revision: Int, attachments: [AttachmentRecord] = []) {
        self.id = id
        self.text = content.text
        self.sentences = content.sentences
        self.requestedLanguage = content.requestedLanguage
        self.mode = content.mode
        self.revision = revision
        self.attachments = content.adjusted(attachments)
    }

    /// What everything cached about this document carries while it is
    /// current (see ``LayoutCache``): unique in the process, renewed by
    /// every change of text or attachments and by ``retire()``.
    var stamp: UInt64 { layouts.stamp }

    /// Sets the default view (`VIEW … default=yes`).
    func setDefaultView(_ spec: LayoutSpec) {
        if let defaultView { defaultView.reset(to: spec) } else { defaultView = View(spec: spec) }
    }

    /// Replaces the text (PUT, COPY/MOVE), as the store's write `revision`
    /// committed it. Attachments stay, moved to the nearest grapheme
    /// boundary within the new text.
    func replace(with content: DocumentContent, revision: Int) {
        attachments = content.adjusted(attachments)
        text = content.text
        sentences = content.sentences
        requestedLanguage = content.requestedLanguage
        mode = content.mode
        didChange(revision: revision)
    }

    /// Takes another node's write (with `--redis`): the text and the
    /// attachments as Redis holds them at `revision`.
    func reload(with content: DocumentContent, attachments: [AttachmentRecord], revision: Int) {
        self.attachments = attachments
        replace(with: content, revision: revision)
    }

    /// Adds or replaces the attachment with this name (store write `revision`).
    func setAttachment(_ attachment: AttachmentRecord, revision: Int) {
        attachments.set(attachment)
        didChange(revision: revision)
    }

    /// Removes the named attachment (store write `revision`); false if there was none.
    func removeAttachment(named name: String, revision: Int) -> Bool {
        guard let index = attachments.firstIndex(where: { $0.name == name }) else { return false }
        attachments.remove(at: index)
        didChange(revision: revision)
        return true
    }

    /// The document has left the registry (DEL, MOVE): nothing cached
    /// about it is current any more, so a session that remembered it under
    /// its id looks the id up again.
    func retire() { layouts.renewStamp() }

    private func didChange(revision: Int) {
        self.revision = revision
        layouts.renewStamp()
    }

    /// The attachments as the layout engine takes them, in text order.
    var layoutAttachments: [InlineAttachment] { attachments.layoutAttachments(end: text.attachmentEnd) }

    /// The sentence containing a UTF-16 offset (see ``SentenceTable/sentence(containing:)``),
    /// looked up in place rather than through a copy of the table.
    func sentence(containing offset: Int) -> Sentence? {
        sentences.sentence(containing: offset)
    }

    /// The last grapheme boundary at or before a UTF-16 offset (clamped to the text).
    func graphemeBoundary(atOrBefore offset: Int) -> Int { text.graphemeBoundary(atOrBefore: offset) }

    // MARK: Layout caches (see LayoutCache)

    /// The cached layout for `spec` (current), now the most recently used.
    func cachedLayout(for spec: LayoutSpec) -> CachedLayout? { layouts.layout(for: spec) }

    func cachedShaping(for font: FontSpec) -> ShapedText? { layouts.shaping(for: font) }

    /// Layouts in the cache (at most ``LayoutCache/maximumCachedLayouts``).
    var cachedLayoutCount: Int { layouts.count }

    /// Highlights memoised, over all cached layouts (at most ``LayoutCache/maximumCachedHighlights``).
    var cachedHighlightCount: Int { layouts.highlightCount }

    /// Stores a layout (and its shaping) computed when the document had
    /// `stamp`, and hands it out as a cache entry; kept in the cache only
    /// if the document has not changed since. A full cache evicts its least
    /// recently used layout, and with it only that layout's highlights.
    @discardableResult
    func store(_ layout: TextLayout, computedAt stamp: UInt64) -> CachedLayout {
        layouts.store(layout, computedAt: stamp)
    }
}

/// Text plus its segmentation, built together (off the loop thread for
/// large texts) before it replaces a document's content.
struct DocumentContent: Sendable {
    let text: DocumentText
    let sentences: SentenceTable
    let requestedLanguage: Language?
    let mode: SentenceMode
    /// The text's UTF-8 bytes, for the store's record: kept from the
    /// request (or made where the content is built, off the loop for a
    /// large text) so that storing a 16 MB text costs the loop no copy.
    let utf8: [UInt8]

    /// Decodes, validates and segments UTF-8 bytes.
    /// - Throws: `ProtocolError` `UTF8` with the byte offset, or `PAYLOAD`
    ///   for a text too long to index.
    init(utf8 bytes: [UInt8], language: Language?, mode: SentenceMode) throws {
        do {
            text = try DocumentText(utf8: bytes)
        } catch {
            switch error {
            case .invalidUTF8(let offset): throw LecternProtocolError.invalidText(byteOffset: offset)
            case .tooLong: throw LecternProtocolError.textTooLong
            }
        }
        sentences = SentenceTable(document: text, mode: mode, language: language)
        requestedLanguage = language
        self.mode = mode
        utf8 = bytes
    }

    init(text: DocumentText, language: Language?, mode: SentenceMode) {
        self.text = text
        sentences = SentenceTable(document: text, mode: mode, language: language)
        requestedLanguage = language
        self.mode = mode
        utf8 = Array(text.string.utf8)
    }
}

/// A document's attachments (ATTACH), as the store keeps them: a name unique
/// in the document, a UTF-16 offset (for one glued to the end,
/// ``AttachmentRecord/followsTextEnd``, the end of the text's last word,
/// ``DocumentText/attachmentEnd``), and the box.
extension Array where Element == AttachmentRecord {
    /// Adds `attachment`, or replaces the one of its name.
    mutating func set(_ attachment: AttachmentRecord) {
        if let index = firstIndex(where: { $0.name == attachment.name }) {
            self[index] = attachment
        } else {
            append(attachment)
        }
    }

    /// The attachments as the layout engine takes them, in text order;
    /// those glued to the end at `end` (``DocumentText/attachmentEnd``).
    func layoutAttachments(end: Int) -> [InlineAttachment] {
        map {
            InlineAttachment(
                name: $0.name, offset: $0.followsTextEnd ? end : $0.utf16Offset,
                width: $0.width, height: $0.height, baselineOffset: $0.baseline)
        }.sorted { $0.offset < $1.offset }
    }
}
