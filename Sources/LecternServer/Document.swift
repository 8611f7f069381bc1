// Document.swift: one stored document and what is derived from it.

import LecternLayout
import LecternText

/// An inline box placed in a document's text flow (ATTACH).
struct DocumentAttachment: Equatable {
    var name: String
    /// UTF-16 offset; ignored when ``atEnd`` (the box follows the text's end).
    var offset: Int
    /// Glued to the end of the text, whatever the text becomes.
    var atEnd: Bool
    var width: Double
    var height: Double
    /// Distance of the box's bottom below the baseline (negative raises it).
    var baseline: Double
}

/// A document: its text, sentence table and attachments, plus caches of its
/// shaping (per font) and layouts (per layout spec), and who watches it.
///
/// The text and sentence table are immutable values; an edit replaces both
/// and bumps ``revision``, and drops the caches. Loop thread only.
final class Document {
    let id: String
    /// Unique among all documents of this process, for caches that must
    /// tell documents apart without holding (or weakly referencing) them.
    let serial: UInt64
    private(set) var text: DocumentText
    private(set) var sentences: SentenceTable
    /// The language the client gave, if any (else it was detected).
    private(set) var requestedLanguage: Language?
    private(set) var mode: SentenceMode
    /// Bumped by every change of text or attachments.
    private(set) var revision: Int
    private(set) var attachments: [DocumentAttachment] = []
    /// The view used by connections that have not set their own (set with
    /// `VIEW … default=yes`): stateless clients can then TAP straight away.
    var defaultView: LayoutSpec? {
        didSet {
            defaultViewGeneration &+= 1
            defaultViewCache = ViewLayoutCache()
        }
    }
    /// Bumped when ``defaultView`` changes (for caches of a view's layout).
    private(set) var defaultViewGeneration = 0
    /// The layout last used for ``defaultView``.
    private(set) var defaultViewCache = ViewLayoutCache()
    /// Connections watching, by connection id.
    var watchers: [UInt64: Connection] = [:]
    /// Each connection's selected sentence numbers (SELECT), by connection
    /// id; dropped when the text changes, since numbers then mean other sentences.
    var selections: [UInt64: Set<Int>] = [:]
    /// Typewriter streams revealing this document, by stream id.
    var streams: [Int: TypewriterStream] = [:]

    /// Formatted highlights (``highlight(_:layout:unit:)``): per layout and
    /// unit, a table by sentence number. Dropped on every change.
    var highlightTables: [HighlightKey: HighlightTable] = [:]
    /// The table used last, unretained (``highlightTables`` holds it):
    /// readers tap one layout over and over, and this spares hashing its
    /// key, and reference counting, on each tap.
    var recentHighlightTable: (key: HighlightKey, table: Unmanaged<HighlightTable>)?
    /// Highlights in all tables, kept below ``maximumCachedHighlights``.
    var cachedHighlightCount = 0
    static let maximumCachedHighlights = 4096
    /// The last ``serial`` given out (loop thread only).
    private nonisolated(unsafe) static var serials: UInt64 = 0
    private var shapedByFont: [FontSpec: ShapedText] = [:]
    private var layoutsBySpec: [LayoutSpec: TextLayout] = [:]
    /// The most layouts kept per document; views beyond that share the
    /// cost of laying out again.
    static let maximumCachedLayouts = 32

    init(id: String, content: DocumentContent, revision: Int, attachments: [DocumentAttachment] = []) {
        self.id = id
        Document.serials += 1
        self.serial = Document.serials
        self.text = content.text
        self.sentences = content.sentences
        self.requestedLanguage = content.requestedLanguage
        self.mode = content.mode
        self.revision = revision
        self.attachments = content.adjusted(attachments)
    }

    /// Replaces the text (PUT, COPY/MOVE). Attachments stay, moved to the
    /// nearest grapheme boundary within the new text.
    func replace(with content: DocumentContent) {
        attachments = content.adjusted(attachments)
        text = content.text
        sentences = content.sentences
        requestedLanguage = content.requestedLanguage
        mode = content.mode
        didChange()
    }

    /// Adds or replaces the attachment with this name.
    func setAttachment(_ attachment: DocumentAttachment) {
        if let index = attachments.firstIndex(where: { $0.name == attachment.name }) {
            attachments[index] = attachment
        } else {
            attachments.append(attachment)
        }
        didChange()
    }

    /// Removes the named attachment; false if there was none.
    func removeAttachment(named name: String) -> Bool {
        guard let index = attachments.firstIndex(where: { $0.name == name }) else { return false }
        attachments.remove(at: index)
        didChange()
        return true
    }

    private func didChange() {
        revision += 1
        dropHighlights()
        shapedByFont.removeAll()
        layoutsBySpec.removeAll()
    }

    /// The attachments as the layout engine takes them, in text order.
    var layoutAttachments: [InlineAttachment] {
        attachments.map {
            InlineAttachment(
                name: $0.name, offset: $0.atEnd ? text.utf16.count : $0.offset,
                width: $0.width, height: $0.height, baselineOffset: $0.baseline)
        }.sorted { $0.offset < $1.offset }
    }

    /// The sentence containing a UTF-16 offset (see ``SentenceTable/sentence(containing:)``),
    /// looked up in place rather than through a copy of the table.
    func sentence(containing offset: Int) -> Sentence? {
        sentences.sentence(containing: offset)
    }

    /// The last grapheme boundary at or before a UTF-16 offset (clamped to the text).
    func graphemeBoundary(atOrBefore offset: Int) -> Int { text.graphemeBoundary(atOrBefore: offset) }

    // MARK: Layout caches

    func cachedLayout(for spec: LayoutSpec) -> TextLayout? { layoutsBySpec[spec] }

    func cachedShaping(for font: FontSpec) -> ShapedText? { shapedByFont[font] }

    /// Stores a layout (and its shaping) computed for `revision`; ignored if
    /// the document has changed since.
    func store(_ layout: TextLayout, computedAt revision: Int) {
        guard revision == self.revision else { return }
        shapedByFont[layout.spec.font] = layout.shaped
        if layoutsBySpec.count >= Document.maximumCachedLayouts, let victim = layoutsBySpec.keys.first {
            layoutsBySpec[victim] = nil
            dropHighlights()
        }
        layoutsBySpec[layout.spec] = layout
    }
}

/// What a table of formatted highlights depends on besides the document:
/// the layout (by identity: cheaper to hash than its spec; the tables are
/// dropped whenever a layout leaves the document's cache, so an identity is
/// never reused while its table remains) and the unit.
struct HighlightKey: Hashable {
    let layout: ObjectIdentifier
    let unit: OffsetUnit
}

/// One layout's formatted highlights, by sentence number (nil: not yet made).
final class HighlightTable {
    var lines: [EncodedDataLines?]

    init(sentenceCount: Int) { lines = Array(repeating: nil, count: sentenceCount) }

    /// Sentence `number`'s lines, if formatted, unretained (this table holds them).
    func unretainedLines(_ number: Int) -> Unmanaged<EncodedDataLines>? {
        lines[number].map(Unmanaged.passUnretained)
    }
}

/// Text plus its segmentation, built together (off the loop thread for
/// large texts) before it replaces a document's content.
struct DocumentContent: Sendable {
    let text: DocumentText
    let sentences: SentenceTable
    let requestedLanguage: Language?
    let mode: SentenceMode

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
    }

    init(text: DocumentText, language: Language?, mode: SentenceMode) {
        self.text = text
        sentences = SentenceTable(document: text, mode: mode, language: language)
        requestedLanguage = language
        self.mode = mode
    }
}
