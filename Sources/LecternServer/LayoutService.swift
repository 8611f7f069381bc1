// LayoutService.swift: fonts, shaping and layout for the daemon, with caches.

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

    /// The layout of `document` for `spec`, computed now on the loop thread
    /// if it is not cached. For fan-out to watchers, whose views are laid out
    /// already in all but rare cases.
    func layoutNow(_ document: Document, spec: LayoutSpec) -> TextLayout {
        if let layout = document.cachedLayout(for: spec) { return layout }
        let layout = Self.compute(
            text: document.text.utf16, shaped: document.cachedShaping(for: spec.font), spec: spec,
            attachments: document.layoutAttachments, shaper: shaper)
        document.store(layout, computedAt: document.revision)
        return layout
    }

    /// The layout of `document` for `spec` if it can be had now: cached, or
    /// small enough to lay out on the loop thread. Otherwise nil, and the
    /// layout is computed on the thread pool; the request is then run again
    /// once it is cached (``Connection/deferReply()`` and
    /// ``Connection/redispatchDeferred(_:)``), so handlers never need to
    /// keep their work in a closure for later.
    func layoutOrDefer(_ document: Document, spec: LayoutSpec, context: CommandContext) -> TextLayout? {
        if let layout = document.cachedLayout(for: spec) { return layout }
        guard document.text.utf16.count > Self.backgroundThreshold else { return layoutNow(document, spec: spec) }
        let text = document.text.utf16
        let shaped = document.cachedShaping(for: spec.font)
        let attachments = document.layoutAttachments
        let revision = document.revision
        let shaper = self.shaper
        let connection = context.connection
        let request = context.request
        connection.deferReply()
        BackgroundWork.run(on: context.server.loop, {
            Self.compute(text: text, shaped: shaped, spec: spec, attachments: attachments, shaper: shaper)
        }, then: { layout in
            document.store(layout, computedAt: revision)
            connection.redispatchDeferred(request)
        })
        return nil
    }

    static func compute(
        text: [UInt16], shaped: ShapedText?, spec: LayoutSpec, attachments: [InlineAttachment], shaper: Shaper
    ) -> TextLayout {
        let shaped = shaped ?? shaper.shape(utf16: text, spec: spec.font)
        return TextLayout(shaped: shaped, spec: spec, attachments: attachments)
    }
}
