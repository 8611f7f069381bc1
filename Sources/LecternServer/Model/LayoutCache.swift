// LayoutCache.swift: the one owner of what is cached about a document's views —
// its shaping, its layouts, each layout's highlight tables — and the one stamp
// that says whether something cached is still current.

import LecternLayout
import LecternText
import Synchronization

/// A layout of one document as the daemon's caches hand it out: the layout,
/// the document stamp it was made for, and the highlights formatted in it.
///
/// Whoever gets a layout from the caches gets this object, so a layout's
/// highlights can only ever be found through the layout itself: no table
/// is looked up by a layout's identity, and a layout that replaces another
/// of the same spec starts with tables of its own.
///
/// Loop thread only.
final class CachedLayout {
    let layout: TextLayout
    /// The ``LayoutCache/stamp`` of its document when it was made: current
    /// while the document still has that stamp (``LayoutCache/isCurrent(_:)``).
    let stamp: UInt64
    /// The cache's use count when this was last used (for LRU eviction).
    fileprivate var lastUse: UInt64 = 0
    /// Whether its document's ``LayoutCache`` holds it. Highlight tables
    /// exist only while it does: they leave the cache with it.
    fileprivate(set) var isCached = false
    /// One table per offset unit in use (nil: none yet, or not cached).
    fileprivate var utf16Table: HighlightTable?
    fileprivate var utf8Table: HighlightTable?
    fileprivate var scalarTable: HighlightTable?
    fileprivate var graphemeTable: HighlightTable?

    init(_ layout: TextLayout, stamp: UInt64) {
        self.layout = layout
        self.stamp = stamp
    }

    /// Highlights in its tables.
    fileprivate var highlightCount: Int {
        (utf16Table?.count ?? 0) + (utf8Table?.count ?? 0) + (scalarTable?.count ?? 0) + (graphemeTable?.count ?? 0)
    }

    fileprivate func table(_ unit: OffsetUnit) -> HighlightTable? {
        switch unit {
        case .utf16: utf16Table
        case .utf8: utf8Table
        case .scalar: scalarTable
        case .grapheme: graphemeTable
        }
    }

    fileprivate func setTable(_ table: HighlightTable?, _ unit: OffsetUnit) {
        switch unit {
        case .utf16: utf16Table = table
        case .utf8: utf8Table = table
        case .scalar: scalarTable = table
        case .grapheme: graphemeTable = table
        }
    }

    fileprivate func dropTables() {
        utf16Table = nil
        utf8Table = nil
        scalarTable = nil
        graphemeTable = nil
    }
}

/// One layout's formatted highlights, by sentence number (nil: not yet made).
final class HighlightTable {
    private var lines: [EncodedDataLines?]
    /// Sentences formatted.
    private(set) var count = 0

    init(sentenceCount: Int) { lines = Array(repeating: nil, count: sentenceCount) }

    subscript(number: Int) -> EncodedDataLines? { number < lines.count ? lines[number] : nil }

    fileprivate func store(_ formatted: EncodedDataLines, at number: Int) {
        guard number < lines.count else { return }
        if lines[number] == nil { count += 1 }
        lines[number] = formatted
    }
}

/// A connection's view of a document (VIEW), or a document's default view:
/// the layout spec, and the layout last used for it.
///
/// Asking this first spares hashing the whole spec (font family, sizes,
/// insets) on every TAP, and keeps a view's layout when the document's
/// bounded cache lets it go. Loop thread only.
final class View {
    private(set) var spec: LayoutSpec
    private var remembered: CachedLayout?

    init(spec: LayoutSpec) { self.spec = spec }

    /// The remembered layout, if it is current for `document`.
    func layout(for document: Document) -> CachedLayout? {
        guard let remembered, document.layouts.isCurrent(remembered) else { return nil }
        return remembered
    }

    /// Remembers `layout` if it is a current layout of `document` for this
    /// view's spec and the view has no current one: for filling a view from
    /// outside its own requests (events, ticks, a background layout
    /// arriving). A layout of another revision, another document, or a
    /// spec this view no longer has is ignored.
    func rememberIfMissing(_ layout: CachedLayout, for document: Document) {
        guard self.layout(for: document) == nil else { return }
        remember(layout, for: document)
    }

    /// Remembers `layout` if it is a current layout of `document` for this view's spec.
    func remember(_ layout: CachedLayout, for document: Document) {
        guard document.layouts.isCurrent(layout), layout.layout.spec == spec else { return }
        remembered = layout
    }

    /// A new spec for this view (a document's default view is changed in
    /// place, so whoever holds it sees the change); forgets the layout.
    func reset(to spec: LayoutSpec) {
        self.spec = spec
        remembered = nil
    }
}

/// A document's shaping (per font) and layouts (per spec, least recently
/// used evicted first), each layout with its highlight tables, and the
/// stamp all of it, and everything else cached about the document
/// (``View``, ``Session/RememberedView``), is checked against.
///
/// The one rule: something cached for a document is current exactly while
/// it carries the document's ``stamp`` (``isCurrent(_:)``). The stamp is
/// renewed by every change of text or attachments, and when the document
/// leaves the registry; stamps are unique in the process, so a stamp also
/// tells documents apart. Renewing drops everything here.
///
/// Loop thread only.
final class LayoutCache {
    /// The last number given out. Atomic, so that documents made on other
    /// threads (at start-up, in tests) never share one.
    private static let numbers = Atomic<UInt64>(0)

    /// A number never given out before in this process: for stamps, and
    /// for ``Document/serial``.
    static func uniqueNumber() -> UInt64 {
        numbers.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// What everything cached about the document must carry to be current.
    private(set) var stamp = LayoutCache.uniqueNumber()

    func isCurrent(_ stamp: UInt64) -> Bool { stamp == self.stamp }
    func isCurrent(_ layout: CachedLayout) -> Bool { isCurrent(layout.stamp) }

    /// The most layouts kept per document (PROTOCOL.md, "Limits"). Views
    /// beyond that keep their own layout (``View``); one that has none is
    /// laid out again, off the loop thread for a large document.
    static let maximumCachedLayouts = 32
    /// The most highlights kept per document, over all its cached layouts.
    static let maximumCachedHighlights = 4096

    /// Shaping per font; only fonts of cached layouts are kept.
    private var shapedByFont: [FontSpec: ShapedText] = [:]
    private var layoutsBySpec: [LayoutSpec: CachedLayout] = [:]
    /// Counts uses, for least-recently-used eviction.
    private var useClock: UInt64 = 0
    /// Highlights in all tables of cached layouts.
    private(set) var highlightCount = 0

    /// Layouts in the cache (at most ``maximumCachedLayouts``).
    var count: Int { layoutsBySpec.count }

    /// Renews the stamp: everything cached so far stops being current, and is dropped.
    func renewStamp() {
        stamp = Self.uniqueNumber()
        for entry in layoutsBySpec.values {
            entry.dropTables()
            entry.isCached = false
        }
        layoutsBySpec.removeAll()
        shapedByFont.removeAll()
        highlightCount = 0
    }

    /// The cached layout for `spec`, now the most recently used.
    func layout(for spec: LayoutSpec) -> CachedLayout? {
        guard let entry = layoutsBySpec[spec] else { return nil }
        touch(entry)
        return entry
    }

    func shaping(for font: FontSpec) -> ShapedText? { shapedByFont[font] }

    /// A layout made when the document's stamp was `stamp`, handed out as
    /// an entry; cached (with its shaping), as the most recently used, only
    /// if that stamp is still current.
    func store(_ layout: TextLayout, computedAt stamp: UInt64) -> CachedLayout {
        let entry = CachedLayout(layout, stamp: stamp)
        guard isCurrent(stamp) else { return entry }
        insert(entry)
        shapedByFont[layout.spec.font] = layout.shaped
        return entry
    }

    /// Puts a current entry into the cache as the most recently used. An
    /// entry of the same spec leaves (with its tables); a full cache
    /// evicts its least recently used entry.
    private func insert(_ entry: CachedLayout) {
        let spec = entry.layout.spec
        if let existing = layoutsBySpec[spec] {
            if existing === entry {
                touch(entry)
                return
            }
            remove(existing)
        } else if layoutsBySpec.count >= Self.maximumCachedLayouts, let victim = leastRecentlyUsed() {
            remove(victim)
        }
        layoutsBySpec[spec] = entry
        entry.isCached = true
        touch(entry)
    }

    private func touch(_ entry: CachedLayout) {
        useClock &+= 1
        entry.lastUse = useClock
    }

    /// - Complexity: O(``maximumCachedLayouts``).
    private func leastRecentlyUsed() -> CachedLayout? {
        layoutsBySpec.values.min { $0.lastUse < $1.lastUse }
    }

    /// Takes an entry out of the cache with its highlight tables, and the
    /// shaping of its font if no other cached layout uses it. With
    /// ``renewStamp()``, the only way out of the cache.
    private func remove(_ entry: CachedLayout) {
        highlightCount -= entry.highlightCount
        entry.dropTables()
        entry.isCached = false
        let spec = entry.layout.spec
        layoutsBySpec[spec] = nil
        if !layoutsBySpec.values.contains(where: { $0.layout.spec.font == spec.font }) { shapedByFont[spec.font] = nil }
    }

    // MARK: Highlights

    /// Sentence `number`'s formatted highlight in `layout`, in `unit`, if it is memoised.
    /// A hit counts as a use of the layout (only a cached layout has tables).
    func highlight(_ number: Int, in layout: CachedLayout, unit: OffsetUnit) -> EncodedDataLines? {
        guard let lines = layout.table(unit)?[number] else { return nil }
        touch(layout)
        return lines
    }

    /// Memoises a formatted highlight in `layout`'s table for `unit`. A
    /// layout that is not current is not memoised in; one that has left
    /// the cache (a view kept it) is put back as the most recently used, so
    /// highlights are kept only for cached layouts and bounded by the cache
    /// (and, over all of them, by ``maximumCachedHighlights``: past it, all
    /// are dropped and memoising starts again).
    func memoise(_ formatted: EncodedDataLines, sentence number: Int, of sentenceCount: Int, in layout: CachedLayout, unit: OffsetUnit) {
        guard isCurrent(layout) else { return }
        if highlightCount >= Self.maximumCachedHighlights { dropHighlights() }
        if layout.isCached { touch(layout) } else { insert(layout) }
        let table: HighlightTable
        if let existing = layout.table(unit) {
            table = existing
        } else {
            table = HighlightTable(sentenceCount: sentenceCount)
            layout.setTable(table, unit)
        }
        let before = table.count
        table.store(formatted, at: number)
        highlightCount += table.count - before
    }

    /// Forgets every formatted highlight (too many of them).
    func dropHighlights() {
        for entry in layoutsBySpec.values { entry.dropTables() }
        highlightCount = 0
    }
}
