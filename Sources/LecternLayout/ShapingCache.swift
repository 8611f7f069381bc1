// ShapingCache.swift: one document's shaped text per font spec ("shape once, break many").

/// A document's shaping results, one `ShapedText` per `FontSpec`, so that
/// every view of the document with that font (any width, size, line height
/// or insets) lays out without shaping again.
///
/// ```swift
/// let cache = ShapingCache(text: Array(document.utf16), shaper: shaper)
/// let layout = cache.layout(LayoutSpec(font: FontSpec(family: "DejaVu Sans"), width: 320, fontSize: 17))
/// ```
///
/// An edit makes a new text, hence a new cache: pass the old one as
/// `reusing:` and each font spec's first shaping copies the unchanged
/// paragraphs instead of shaping them again. Confined to one thread (the
/// loop thread); to shape off the loop, call `Shaper.shape` on the worker
/// and hand the result to `insert(_:)`.
///
/// - Complexity: `shaped(for:)` is O(1) when cached, else one shaping pass.
public final class ShapingCache {
    /// The document text, UTF-16.
    public let text: [UInt16]
    public let shaper: Shaper
    private var entries: [FontSpec: ShapedText] = [:]
    /// Results for the text before an edit, used once per spec, then dropped.
    private var previousEntries: [FontSpec: ShapedText]

    /// - Parameter previous: the cache of the text before an edit, if any.
    public init(text: [UInt16], shaper: Shaper, reusing previous: ShapingCache? = nil) {
        self.text = text
        self.shaper = shaper
        previousEntries = previous.map { $0.entries.merging($0.previousEntries) { current, _ in current } } ?? [:]
    }

    /// The text shaped for `spec`, shaping it on first use (copying the
    /// paragraphs unchanged since the previous cache's text).
    public func shaped(for spec: FontSpec) -> ShapedText {
        if let cached = entries[spec] { return cached }
        let shaped = shaper.shape(utf16: text, spec: spec, reusing: previousEntries.removeValue(forKey: spec))
        entries[spec] = shaped
        return shaped
    }

    /// Adds a result shaped elsewhere (e.g. on a worker thread). Ignored when
    /// it is for another text.
    public func insert(_ shaped: ShapedText) {
        guard shaped.text == text else { return }
        entries[shaped.resolution.spec] = shaped
    }

    /// Whether `spec` is already shaped (a view can then be laid out on the loop thread at once).
    public func contains(_ spec: FontSpec) -> Bool { entries[spec] != nil }

    /// Lays the document out for a view; shapes only if `spec.font` is new.
    /// - Complexity: O(graphemes) once shaped.
    public func layout(_ spec: LayoutSpec, attachments: [InlineAttachment] = []) -> TextLayout {
        TextLayout(shaped: shaped(for: spec.font), spec: spec, attachments: attachments)
    }

    /// Drops every cached result, and those kept from before an edit (e.g. under memory pressure).
    public func removeAll() {
        entries.removeAll()
        previousEntries.removeAll()
    }
}

@available(*, unavailable)
extension ShapingCache: Sendable {}
