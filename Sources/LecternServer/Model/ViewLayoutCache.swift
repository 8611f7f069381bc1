// ViewLayoutCache.swift: a view's layout, remembered for the document revision it was made for.

import LecternLayout

/// The layout last used for one view (a connection's own, or a document's
/// default), valid while its document keeps the same revision.
///
/// Looking a layout up by its spec hashes the whole spec (font family,
/// sizes, insets) on every TAP; a view asks this first. A reference type,
/// so a view state in a dictionary can update it without being written back.
///
/// Loop thread only.
final class ViewLayoutCache {
    private var documentSerial: UInt64 = 0
    private var revision = -1
    private var layout: TextLayout?
    /// ``layout`` unretained (this cache holds it).
    private var layoutReference: Unmanaged<TextLayout>?

    /// The remembered layout, if it was made for this document at its current revision.
    func layout(for document: Document) -> TextLayout? {
        documentSerial == document.serial && revision == document.revision ? layout : nil
    }

    /// ``layout(for:)`` without a retain, for a request answered at once:
    /// valid until this cache remembers another layout.
    func unretainedLayout(for document: Document) -> Unmanaged<TextLayout>? {
        documentSerial == document.serial && revision == document.revision ? layoutReference : nil
    }

    /// Remembers `layout`, computed for `revision`, only if this cache has
    /// no layout for `document` at its current revision and `revision` is
    /// that revision. For filling caches from outside the view's own
    /// requests (events, ticks, a background layout arriving).
    ///
    /// Safe at any point of a request: a request that holds a view's layout
    /// unretained (TAP) holds one valid for the current revision, which
    /// this never replaces; what it replaces is only a layout of another
    /// revision or document, which no request in progress is using.
    func rememberIfMissing(_ layout: TextLayout, computedAt revision: Int, for document: Document) {
        guard revision == document.revision, self.layout(for: document) == nil else { return }
        remember(layout, for: document)
    }

    func remember(_ layout: TextLayout, for document: Document) {
        documentSerial = document.serial
        revision = document.revision
        self.layout = layout
        layoutReference = Unmanaged.passUnretained(layout)
    }
}
