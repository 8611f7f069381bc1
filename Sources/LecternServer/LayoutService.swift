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

    /// Calls `body` with the layout of `document` for `spec`: at once when it
    /// is cached or small, otherwise after computing it on the thread pool
    /// (the connection's reply is deferred meanwhile).
    func withLayout(
        _ document: Document, spec: LayoutSpec, context: CommandContext,
        _ body: @escaping (TextLayout) throws -> Reply
    ) throws -> CommandOutcome {
        if let layout = document.cachedLayout(for: spec) { return .reply(try body(layout)) }
        guard document.text.utf16.count > Self.backgroundThreshold else {
            return .reply(try body(layoutNow(document, spec: spec)))
        }
        let text = document.text.utf16
        let shaped = document.cachedShaping(for: spec.font)
        let attachments = document.layoutAttachments
        let revision = document.revision
        let shaper = self.shaper
        let connection = context.connection
        let tag = context.request.tag
        connection.deferReply()
        BackgroundWork.run(on: context.server.loop, {
            Self.compute(text: text, shaped: shaped, spec: spec, attachments: attachments, shaper: shaper)
        }, then: { layout in
            document.store(layout, computedAt: revision)
            let result: Result<Reply, ProtocolError>
            do {
                result = .success(try body(layout))
            } catch let error as ProtocolError {
                result = .failure(error)
            } catch {
                result = .failure(ProtocolError(.arguments, "\(error)"))
            }
            connection.completeDeferredReply(result, tag: tag)
        })
        return .deferred
    }

    private static func compute(
        text: [UInt16], shaped: ShapedText?, spec: LayoutSpec, attachments: [InlineAttachment], shaper: Shaper
    ) -> TextLayout {
        let shaped = shaped ?? shaper.shape(utf16: text, spec: spec.font)
        return TextLayout(shaped: shaped, spec: spec, attachments: attachments)
    }
}
