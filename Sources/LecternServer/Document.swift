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
/// shaping (per font) and layouts (per layout spec). Who watches it,
/// selects in it or types it is in ``ReaderRegistry``.
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

    /// The table used last, unretained (its layout's cache entry holds
    /// it; cleared whenever that entry leaves the cache or drops its
    /// tables): readers tap one layout over and over, and this spares
    /// hashing its key, and reference counting, on each tap.
    var recentHighlightTable: (key: HighlightKey, table: Unmanaged<HighlightTable>)?
    /// Highlights in all tables, kept below ``maximumCachedHighlights``.
    var cachedHighlightCount = 0
    static let maximumCachedHighlights = 4096
    /// The last ``serial`` given out (loop thread only).
    private nonisolated(unsafe) static var serials: UInt64 = 0
    /// Shaping per font; only fonts of layouts in ``layoutsBySpec`` are kept.
    private var shapedByFont: [FontSpec: ShapedText] = [:]
    /// The layout cache, by spec: at most ``maximumCachedLayouts`` entries,
    /// the least recently used one evicted first.
    private var layoutsBySpec: [LayoutSpec: CachedLayout] = [:]
    /// The same entries by the identity of their layout, to find a layout's
    /// highlight tables. An entry holds its layout, so an identity is a key
    /// here only while that one layout is alive: no other layout can be
    /// given its address meanwhile.
    private var layoutsByIdentity: [ObjectIdentifier: CachedLayout] = [:]
    /// Counts uses, for least-recently-used eviction.
    private var useClock: UInt64 = 0
    /// The most layouts kept per document (PROTOCOL.md, "Limits"). Views
    /// beyond that keep their own layout (``ViewLayoutCache``); one that
    /// has none is laid out again, off the loop thread for a large document.
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
        layoutsByIdentity.removeAll()
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

    /// The cached layout for `spec` (made at the current revision), now the most recently used.
    func cachedLayout(for spec: LayoutSpec) -> TextLayout? {
        guard let entry = layoutsBySpec[spec] else { return nil }
        touch(entry)
        return entry.layout
    }

    func cachedShaping(for font: FontSpec) -> ShapedText? { shapedByFont[font] }

    /// Layouts in the cache (at most ``maximumCachedLayouts``).
    var cachedLayoutCount: Int { layoutsBySpec.count }

    /// Stores a layout (and its shaping) computed for `revision`; ignored if
    /// the document has changed since. A full cache evicts its least
    /// recently used layout, and with it only that layout's highlights.
    func store(_ layout: TextLayout, computedAt revision: Int) {
        guard revision == self.revision else { return }
        insert(layout)
        shapedByFont[layout.spec.font] = layout.shaped
    }

    /// Puts `layout` (made at the current revision) into the cache as the
    /// most recently used; replaces another layout of the same spec.
    @discardableResult
    private func insert(_ layout: TextLayout) -> CachedLayout {
        if let existing = layoutsBySpec[layout.spec] {
            if existing.layout === layout {
                touch(existing)
                return existing
            }
            remove(existing)
        } else if layoutsBySpec.count >= Document.maximumCachedLayouts, let victim = leastRecentlyUsed() {
            remove(victim)
        }
        useClock &+= 1
        let entry = CachedLayout(layout, lastUse: useClock)
        layoutsBySpec[layout.spec] = entry
        layoutsByIdentity[ObjectIdentifier(layout)] = entry
        return entry
    }

    private func touch(_ entry: CachedLayout) {
        useClock &+= 1
        entry.lastUse = useClock
    }

    /// The entry used longest ago. The layout of the table used last counts
    /// as just used (taps through ``recentHighlightTable`` skip ``touch(_:)``).
    /// - Complexity: O(``maximumCachedLayouts``).
    private func leastRecentlyUsed() -> CachedLayout? {
        let recent = recentHighlightTable?.key.layout
        var victim: CachedLayout?
        for entry in layoutsBySpec.values where layoutsBySpec.count == 1 || ObjectIdentifier(entry.layout) != recent {
            if victim.map({ entry.lastUse < $0.lastUse }) ?? true { victim = entry }
        }
        return victim
    }

    /// Takes a layout out of the cache, with its highlight tables, and the
    /// shaping of its font if no other cached layout uses it.
    ///
    /// The only way out of the cache besides ``didChange()``: an entry's
    /// tables, and so ``recentHighlightTable``, never outlive it.
    private func remove(_ entry: CachedLayout) {
        let identity = ObjectIdentifier(entry.layout)
        if recentHighlightTable?.key.layout == identity { recentHighlightTable = nil }
        for table in entry.highlightTables.values { cachedHighlightCount -= table.count }
        entry.highlightTables.removeAll()
        layoutsBySpec[entry.layout.spec] = nil
        layoutsByIdentity[identity] = nil
        let font = entry.layout.spec.font
        if !layoutsBySpec.values.contains(where: { $0.layout.spec.font == font }) { shapedByFont[font] = nil }
    }

    // MARK: Highlight tables

    /// The highlight table for `layout` and a unit, unretained: the
    /// layout's cache entry holds it until the entry leaves the cache or
    /// the highlights are dropped, so use it at once.
    ///
    /// `layout` must be a layout of this document at its current revision
    /// (callers take it from a view's cache or ``LayoutService``, which
    /// check). One that has left the cache (a view kept it) is put back as
    /// the most recently used: highlights are kept only for cached layouts,
    /// so they are bounded by the cache, and a table is never looked up
    /// by the identity of a layout that no longer exists.
    func highlightTable(for layout: TextLayout, unit: OffsetUnit) -> Unmanaged<HighlightTable> {
        let key = HighlightKey(layout: ObjectIdentifier(layout), unit: unit)
        if let recent = recentHighlightTable, recent.key == key { return recent.table }
        let entry: CachedLayout
        if let known = layoutsByIdentity[key.layout] {
            entry = known
            touch(entry)
        } else {
            entry = insert(layout)
        }
        let table: HighlightTable
        if let existing = entry.highlightTables[unit] {
            table = existing
        } else {
            table = HighlightTable(sentenceCount: sentences.count)
            entry.highlightTables[unit] = table
        }
        let reference = Unmanaged.passUnretained(table)
        recentHighlightTable = (key, reference)
        return reference
    }

    /// Forgets every formatted highlight (the text changed, or there are too many).
    func dropHighlights() {
        recentHighlightTable = nil
        for entry in layoutsBySpec.values { entry.highlightTables.removeAll() }
        cachedHighlightCount = 0
    }
}

/// A layout in a document's cache, with the highlights formatted in it.
final class CachedLayout {
    let layout: TextLayout
    /// The document's use count when this was last used (for LRU eviction).
    var lastUse: UInt64
    /// Formatted highlights, one table per offset unit in use; they go when
    /// the entry leaves the cache.
    var highlightTables: [OffsetUnit: HighlightTable] = [:]

    init(_ layout: TextLayout, lastUse: UInt64) {
        self.layout = layout
        self.lastUse = lastUse
    }
}

/// What the table of formatted highlights used last is known by: its
/// layout and unit. The layout by identity (cheaper to compare than its
/// spec), which is safe because a key is only ever made from a live layout
/// and compared while the document's cache holds the key's layout (its
/// table lives in that layout's cache entry, and ``Document/recentHighlightTable``
/// is cleared when the entry goes): an identity cannot be reused by another
/// layout while a key holding it is in use.
struct HighlightKey: Hashable {
    let layout: ObjectIdentifier
    let unit: OffsetUnit
}

/// One layout's formatted highlights, by sentence number (nil: not yet made).
final class HighlightTable {
    private(set) var lines: [EncodedDataLines?]
    /// Sentences formatted.
    private(set) var count = 0

    init(sentenceCount: Int) { lines = Array(repeating: nil, count: sentenceCount) }

    func store(_ formatted: EncodedDataLines, at number: Int) {
        if lines[number] == nil { count += 1 }
        lines[number] = formatted
    }

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
