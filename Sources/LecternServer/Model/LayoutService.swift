// LayoutService.swift: fonts, shaping and layout for the daemon, with caches.

import CUV
import LecternLayout
import LecternProtocol

/// The daemon's layout engine: one font catalog and shaper for the process,
/// and the rule for where layout runs.
///
/// Shape once, break many: a document keeps its shaping per font and its
/// layouts per spec, so a new width re-runs only line breaking. Laying out a
/// document whose text is longer than ``backgroundThreshold`` UTF-16 units
/// (tens of milliseconds for shaping) runs on libuv's thread pool; the
/// connection's reply waits for it, other connections do not.
final class LayoutService {
    let catalog: FontCatalog
    let shaper: Shaper
    /// Text length above which layout leaves the loop thread.
    static let backgroundThreshold = 8192

    init() throws {
        catalog = try FontCatalog()
        shaper = Shaper(catalog: catalog)
    }

    /// Layouts computed since start, on the loop thread or the pool (STATS `layouts_computed`).
    private(set) var computedCount = 0
    /// Of ``computedCount``, those computed on the thread pool (STATS `layouts_background`).
    private(set) var computedInBackgroundCount = 0
    /// Layouts being computed on the thread pool, each with what waits for it.
    private var inFlight: [LayoutRequest: [(CachedLayout) -> Void]] = [:]

    /// What a background layout is for: a document as it was when its text
    /// was taken (its stamp, see ``LayoutCache``), and the spec.
    struct LayoutRequest: Hashable {
        let stamp: UInt64
        let spec: LayoutSpec

        init(stamp: UInt64, spec: LayoutSpec) {
            self.stamp = stamp
            self.spec = spec
        }

        /// For `document` as it is now.
        init(_ document: Document, spec: LayoutSpec) { self.init(stamp: document.stamp, spec: spec) }
    }

    /// The layout of `document` for `spec`, computed now on the loop thread
    /// if it is not cached. Only for documents no longer than
    /// ``backgroundThreshold`` (or where a caller has measured the cost);
    /// others go through ``layoutOrDefer(_:spec:context:)`` or
    /// ``requestLayout(_:spec:on:then:)``.
    func layoutNow(_ document: Document, spec: LayoutSpec) -> CachedLayout {
        if let layout = document.cachedLayout(for: spec) { return layout }
        let layout = Self.compute(
            text: document.text.utf16, shaped: document.cachedShaping(for: spec.font), spec: spec,
            attachments: document.layoutAttachments, shaper: shaper)
        computedCount += 1
        return document.store(layout, computedAt: document.stamp)
    }

    /// The layout of `document` for `spec` if it can be had now: cached, or
    /// small enough to lay out on the loop thread. Otherwise nil, and the
    /// layout is computed on the thread pool; the request is then run again
    /// once it is cached (``Connection/deferReply()`` and
    /// ``Connection/redispatchDeferred(_:)``), so handlers never need to
    /// keep their work in a closure for later.
    func layoutOrDefer(_ document: Document, spec: LayoutSpec, context: CommandContext) -> CachedLayout? {
        if let layout = document.cachedLayout(for: spec) { return layout }
        guard document.text.utf16.count > Self.backgroundThreshold else { return layoutNow(document, spec: spec) }
        let connection = context.connection
        let request = context.request
        connection.deferReply()
        requestLayout(document, spec: spec, on: context.server.loop) { _ in connection.redispatchDeferred(request) }
        return nil
    }

    /// The layout of `view` of `document` for a request: the one the view
    /// remembers, or else ``layoutOrDefer(_:spec:context:)``'s, which the
    /// view then remembers. Nil: the request waits for the pool (`context`
    /// is asked for only then, or for a small document not cached).
    func layoutOrDefer(_ document: Document, view: View, context: () -> CommandContext) -> CachedLayout? {
        if let layout = view.layout(for: document) { return layout }
        guard let layout = layoutOrDefer(document, spec: view.spec, context: context()) else { return nil }
        view.remember(layout, for: document)
        return layout
    }

    /// The layout of `view` of `document` if it can be had on the loop
    /// thread outside a request (events, ticks): the one the view
    /// remembers, the document's cached one, or a small document laid out
    /// now; what is found the view then remembers. Nil if it has to be
    /// computed on the pool (the caller asks for it, or not).
    func layoutOnLoop(_ document: Document, view: View) -> CachedLayout? {
        if let layout = view.layout(for: document) { return layout }
        let layout: CachedLayout
        if let cached = document.cachedLayout(for: view.spec) {
            layout = cached
        } else if document.text.utf16.count <= Self.backgroundThreshold {
            layout = layoutNow(document, spec: view.spec)
        } else {
            return nil
        }
        view.rememberIfMissing(layout, for: document)
        return layout
    }

    /// Whether a layout of `document` at its current revision for `spec` is being computed on the pool.
    func isLayingOut(_ document: Document, spec: LayoutSpec) -> Bool {
        inFlight[LayoutRequest(document, spec: spec)] != nil
    }

    /// Lays out `document` (its text and attachments as they are now) for
    /// `spec` on the thread pool. On the loop thread, when it is ready, the
    /// layout is stored in the document's cache (unless the document has
    /// changed meanwhile) and given to `then` (as made for the stamp it
    /// was asked at, current or not), and to every other caller
    /// that asked for the same document, revision and spec while it was
    /// being computed: one computation serves them all. Layouts of one text
    /// in one font that is not shaped yet shape it once: the first shapes,
    /// the others wait for its shaping and then only break lines.
    ///
    /// `then` runs from the loop, outside any request (see ``BackgroundWork``).
    func requestLayout(
        _ document: Document, spec: LayoutSpec, on loop: UnsafeMutablePointer<uv_loop_t>,
        then: @escaping (CachedLayout) -> Void
    ) {
        let key = LayoutRequest(document, spec: spec)
        if inFlight[key] != nil {
            inFlight[key]?.append(then)
            return
        }
        inFlight[key] = [then]
        let text = document.text.utf16
        let attachments = document.layoutAttachments
        if let shaped = document.cachedShaping(for: spec.font) {
            computeInBackground(key, text: text, attachments: attachments, shaped: shaped, document: document, loop: loop)
            return
        }
        let shaping = ShapingRequest(stamp: key.stamp, font: spec.font)
        if shapingInFlight[shaping] != nil {
            shapingInFlight[shaping]?.append { [self] shaped in
                computeInBackground(key, text: text, attachments: attachments, shaped: shaped, document: document, loop: loop)
            }
            return
        }
        shapingInFlight[shaping] = []
        computeInBackground(key, text: text, attachments: attachments, shaped: nil, document: document, loop: loop)
    }

    /// A text shaped in a font on the pool (by ``requestLayout(_:spec:on:then:)``),
    /// with the layouts that wait for that shaping.
    private struct ShapingRequest: Hashable {
        let stamp: UInt64
        let font: FontSpec
    }
    private var shapingInFlight: [ShapingRequest: [(ShapedText) -> Void]] = [:]

    /// One layout on the pool, for ``requestLayout(_:spec:on:then:)``: `text` and
    /// `attachments` are the document's at `key.stamp`; `shaped` nil shapes it too.
    private func computeInBackground(
        _ key: LayoutRequest, text: [UInt16], attachments: [InlineAttachment], shaped: ShapedText?,
        document: Document, loop: UnsafeMutablePointer<uv_loop_t>
    ) {
        let shaper = self.shaper
        BackgroundWork.run(on: loop, {
            Self.compute(text: text, shaped: shaped, spec: key.spec, attachments: attachments, shaper: shaper)
        }, then: { [self] layout in
            computedCount += 1
            computedInBackgroundCount += 1
            let entry = document.store(layout, computedAt: key.stamp)
            if shaped == nil {
                let shaping = ShapingRequest(stamp: key.stamp, font: key.spec.font)
                for waiting in shapingInFlight.removeValue(forKey: shaping) ?? [] { waiting(layout.shaped) }
            }
            for callback in inFlight.removeValue(forKey: key) ?? [] { callback(entry) }
        })
    }

    static func compute(
        text: [UInt16], shaped: ShapedText?, spec: LayoutSpec, attachments: [InlineAttachment], shaper: Shaper
    ) -> TextLayout {
        let shaped = shaped ?? shaper.shape(utf16: text, spec: spec.font)
        return TextLayout(shaped: shaped, spec: spec, attachments: attachments)
    }
}
