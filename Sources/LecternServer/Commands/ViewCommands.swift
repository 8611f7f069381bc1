// ViewCommands.swift: VIEW, LINES, TAP, RECTS, CARET, ATTACH, DETACH.

import LecternLayout
import LecternProtocol
import LecternStore
import LecternText

extension Server {
    /// Commands that need a view: layout, hit-testing, geometry, attachments.
    static let viewCommands: [Command] = [
        Command(
            name: "VIEW", syntax: "<id>",
            options: [
                ViewOptions.width, ViewOptions.size, ViewOptions.font, ViewOptions.weight, ViewOptions.italic,
                ViewOptions.lineHeight, ViewOptions.paragraphSpacing, ViewOptions.insets, ViewOptions.isDefault,
            ],
            summary: "Sets this connection's view of a document and lays it out: the summary of its lines.",
            details: [
                "VIEW intro width=320 size=17 font=\"DejaVu Sans\"  -> OK VIEW id=intro … lines=3 height=58.5",
                "fonts=\"NanumGothic,DejaVu Sans\": every font the layout uses, most-drawing first, then font= (line metrics) if it draws nothing; files: LINES <id> runs=yes.",
            ],
            handler: { context in
                let server = context.server
                let id = try Wire.documentID(context.arguments[0])
                let document = try server.documents.require(id)
                let spec = try LayoutSpec(viewArguments: context.request)
                let isDefault = try ViewOptions.isDefault.read(context.request)
                context.connection.session.views[id] = View(spec: spec)
                if isDefault { document.setDefaultView(spec) }
                return try context.withLayout(document, spec: spec) { layout in
                    Reply("VIEW " + server.viewFacts(document, layout: layout))
                }
            }),
        Command(
            name: "LINES", syntax: "<id>", options: [LinesOptions.runs],
            summary: "The view's line table: each line's range, top, baseline, height, x, width and caret positions.",
            details: [
                "LINES intro -> * line 0 range=0..31 top=0 baseline=13.5 height=17 x=0 width=301.2 paragraph=0 carets=0,7.1,… / OK LINES 3",
                "runs=yes: first one * font line per font VIEW's fonts= names (family, file, face index), then after each line its runs:",
                "  * font 0 family=\"NanumGothic\" file=\"/usr/share/fonts/…/NanumGothic.ttf\" index=0 graphemes=12 primary=no",
                "  * run 0 range=0..5 font=0 size=17 x=0 width=52.1 direction=ltr   (line 0's run in font 0; ends OK LINES 3 runs=4 fonts=2)",
            ],
            handler: { context in
                let withRuns = try LinesOptions.runs.read(context.request)
                return try context.withView(outcome: { document, cached in
                    let layout = cached.layout
                    let unit = context.unit
                    let text = document.text
                    return try context.sendBuiltReply(
                        offLoop: text.utf16.count > LargeReply.textThreshold,
                        describing: "the \(layout.lines.count) lines of '\(document.id)'",
                        hint: "LINES sends every line; split the document, or raise --output-hard-limit"
                    ) { reply in
                        let shaped = layout.shaped
                        if withRuns {
                            for (index, usage) in shaped.fontUsage.enumerated() {
                                reply.data("font \(index) family=\(ReplyEncoder.quote(usage.font.family))"
                                    + " file=\(ReplyEncoder.quote(usage.font.path)) index=\(usage.font.faceIndex)"
                                    + " graphemes=\(usage.graphemes) primary=\(usage.isPrimary ? "yes" : "no")")
                            }
                        }
                        var runCount = 0
                        let size = Wire.number(layout.fontSize)
                        for index in layout.lines.indices {
                            let line = layout.lines[index]
                            let carets = layout.graphemeBoundaryPositions(line: index).map(Wire.number).joined(separator: ",")
                            reply.data("line \(index) range=\(text.wireRange(line.textRange, unit: unit))"
                                + " top=\(Wire.number(line.top)) baseline=\(Wire.number(line.baseline))"
                                + " height=\(Wire.number(line.height)) x=\(Wire.number(line.x))"
                                + " width=\(Wire.number(line.width)) paragraph=\(line.paragraph) carets=\(carets)")
                            guard withRuns else { continue }
                            for run in layout.runs(onLine: index) {
                                guard let font = shaped.usageIndex[run.fontIndex] else { continue }
                                runCount += 1
                                reply.data("run \(index) range=\(text.wireRange(run.textRange, unit: unit)) font=\(font)"
                                    + " size=\(size) x=\(Wire.number(run.x)) width=\(Wire.number(run.width))"
                                    + " direction=\(run.isRightToLeft ? "rtl" : "ltr")")
                            }
                        }
                        guard withRuns else { return "LINES \(layout.lines.count)" }
                        return "LINES \(layout.lines.count) runs=\(runCount) fonts=\(shaped.fontUsage.count)"
                    }
                })
            }),
        Command(
            name: "TAP", syntax: "<id> <x> <y>", options: [PointOptions.slop],
            summary: "The sentence under a point, with its highlight rects and outline; watchers see it too.",
            details: [
                "TAP intro 40 12  -> * sentence 0 … / * rects 0,0,31.5,17 / * outline … / OK TAP hit sentence=0 offset=3 side=trailing distance=0",
                "A point off the text: OK TAP miss distance=<pt> nearest=<sentence>; slop=<pt> counts near misses as hits.",
            ],
            typed: Tap.self),
        Command(
            name: "RECTS", syntax: "<id> <sentence>",
            summary: "A sentence's highlight in the view: one rect per line fragment, and the outline of their union.",
            details: ["RECTS intro 1 -> * sentence 1 … / * rects … / * outline … / OK RECTS sentence=1"],
            handler: { context in
                try context.withView { document, layout in
                    let sentence = try document.sentence(number: context.arguments[1])
                    let unit = context.unit
                    return Reply("RECTS sentence=\(sentence.number)", data: document.highlightLines(sentence, layout: layout, unit: unit))
                }
            }),
        Command(
            name: "CARET", syntax: "<id> <offset>",
            summary: "The caret rect at an offset (in the connection's unit) in the view.",
            details: ["CARET intro 4 -> OK CARET offset=4 rect=30.5,0,1,17 line=0"],
            handler: { context in
                try context.withView { document, cached in
                    let layout = cached.layout
                    let unit = context.unit
                    let offset = try document.utf16Offset(fromWire: context.arguments[1], unit: unit, name: "offset")
                    let rect = layout.caretRect(at: offset)
                    let line = layout.lineIndex(containing: offset)
                    return Reply("CARET offset=\(document.wireOffset(offset, unit: unit)) rect=\(Wire.rect(rect)) line=\(line)")
                }
            }),
        Command(
            name: "ATTACH", syntax: "<id> <name> <width> <height> [baseline]", options: [AttachOptions.at],
            summary: "Puts an inline box (an animation, an image) into the text flow; it wraps with the word before it.",
            details: [
                "ATTACH intro anim at=end 30 30   -> OK ATTACH name=anim offset=9 rect=64.2,0,30,30 line=0",
                "baseline: how far the box's bottom sits below the baseline (default 0; negative raises it).",
            ],
            handler: { context in try context.server.attach(context) }),
        Command(
            name: "DETACH", syntax: "<id> <name>",
            summary: "Removes an inline attachment.",
            details: ["DETACH intro anim -> OK DETACH name=anim"],
            handler: { context in
                let server = context.server
                let document = try context.document()
                let name = context.arguments[1]
                let id = document.id
                let missing = ProtocolError(.noAttachment, "'\(id)' has no attachment '\(name)'")
                guard document.attachments.contains(where: { $0.name == name }) else { throw missing }
                return try server.commit(context, .removeAttachment(name: name, documentID: id)) { revisions in
                    guard document.removeAttachment(named: name, revision: revisions[0]) else { throw missing }
                    server.documentDidChange(document, by: context.connection, created: false, textChanged: false)
                    return Reply("DETACH name=\(name)")
                }
            }),
    ]

    /// RENDER: the view as SVG.
    static let renderCommand = Command(
        name: "RENDER", syntax: "<id>", options: [RenderOptions.sentence, RenderOptions.caret, RenderOptions.boxes],
        summary: "The view as an SVG picture: text, sentence marks, this connection's selection, attachments.",
        details: [
            "RENDER intro sentence=1 -> * {N} / <svg …>…</svg> / OK RENDER bytes=N width=200 height=59.37",
            "sentence= highlights one more sentence; caret= draws a caret; boxes=yes draws line boxes and baselines.",
            "The text is the shaped glyphs' outlines from the font files: <path id=\"f<font>g<glyph>\"> once each in <defs>, then <use> per glyph.",
            "A picture that could pass --output-hard-limit is refused before drawing: ERR TOOLARGE with the estimate.",
        ],
        handler: { context in
            let request = context.request
            let boxes = try RenderOptions.boxes.read(request)
            return try context.withView(outcome: { document, cached in
                let layout = cached.layout
                let unit = context.unit
                // Values only: the picture may be drawn on the thread pool.
                let selected = context.server.readers.selection(of: context.connection, in: document)
                let sentences = document.sentences
                let extra = try RenderOptions.sentence.read(request).map { try document.sentence(number: $0).content }
                let caret = try RenderOptions.caret.read(request).map {
                    try document.utf16Offset(fromWire: $0, unit: unit, name: "caret")
                }
                let what = "RENDER of '\(document.id)'"
                let hint = "RENDER draws the whole document: split it into smaller documents, or raise --output-hard-limit"
                let limit = context.server.configuration.outputHardLimit
                // The literal's header, the status line and the tag.
                let framing = 128 + (request.tag?.utf8.count ?? 0)
                // Always off the loop: the glyphs are shaped again and their outlines drawn.
                return try context.sendBuiltReply(
                    offLoop: true,
                    describing: what, hint: hint
                ) { reply in
                    var highlights = selected.filter { $0 < sentences.count }.sorted().map { sentences[$0].content }
                    if let extra { highlights.append(extra) }
                    let options = SVGOptions(
                        sentences: sentences.map(\.content), highlights: highlights, caret: caret, showLineBoxes: boxes)
                    // Measured, then refused before drawing when even the bound is over.
                    let picture = layout.svgPicture(options, budget: limit - framing)
                    let estimate = picture.estimatedSize + framing
                    guard estimate <= limit else {
                        throw ProtocolError(.replyTooLarge, "\(what) would be up to \(estimate) bytes (estimated before drawing), over the output limit of \(limit) bytes per connection (--output-hard-limit); \(hint)")
                    }
                    let svg = picture.draw()
                    reply.literal(svg)
                    return "RENDER bytes=\(svg.utf8.count) width=\(Wire.number(layout.spec.width)) height=\(Wire.number(layout.height))"
                }
            })
        })

    /// `id=… width=… size=… font="…" requested="…" substituted=… fonts="…" lines=… height=…`:
    /// `font=` is the primary font (whose metrics every line has), `fonts=`
    /// every font the layout depends on (``ShapedText/fontUsage``), comma-separated.
    func viewFacts(_ document: Document, layout: TextLayout) -> String {
        let resolution = layout.shaped.resolution
        let fonts = layout.shaped.fontUsage.map(\.font.family).joined(separator: ",")
        return "id=\(document.id) revision=\(document.revision) width=\(Wire.number(layout.spec.width))"
            + " size=\(Wire.number(layout.fontSize)) font=\(ReplyEncoder.quote(resolution.matchedFamily))"
            + " requested=\(ReplyEncoder.quote(layout.spec.font.family))"
            + " substituted=\(resolution.isSubstitute ? "yes" : "no") fonts=\(ReplyEncoder.quote(fonts))"
            + " lines=\(layout.lines.count) height=\(Wire.number(layout.height))"
    }

    /// TAP's answer for a resolved point. A hit on a sentence is written
    /// straight into the connection's output from the memoised highlight.
    fileprivate func tap(_ point: PointHit, document: Document, layout: CachedLayout, connection: Connection, tag: String?) -> CommandOutcome {
        let unit = connection.session.unit
        switch point {
        case .attachment(let index, _):
            let attachment = layout.layout.attachments[index]
            let frame = layout.layout.attachmentFrames[index]
            return .reply(Reply("TAP attachment name=\(attachment.name) offset=\(document.wireOffset(attachment.offset, unit: unit)) rect=\(Wire.rect(frame))"))
        case .miss(let distance, let nearest):
            return .reply(Reply("TAP " + PointHit.missFacts(distance: distance, nearest: nearest)))
        case .sentence(let sentence, let hit):
            if readers.hasWatchers(document) {
                broadcast(document, from: connection, range: sentence.content) { watcherUnit in
                    "TAP \(document.id) by=\(connection.id) revision=\(document.revision) sentence=\(sentence.number) range=\(document.wireRange(sentence.content, unit: watcherUnit))"
                }
            }
            if cluster != nil { publishReading(document, by: connection, .tap(sentence: sentence.number, range: sentence.content)) }
            // TAP hit sentence=<n> offset=<o> side=<side> distance=<pt>
            connection.reply(data: document.highlight(sentence, layout: layout, unit: unit), tag: tag) { line in
                line.write("TAP hit sentence=")
                line.write(decimal: sentence.number)
                line.write(" offset=")
                line.write(decimal: document.wireOffset(hit.offset, unit: unit))
                line.write(hit.side == .leading ? " side=leading distance=" : " side=trailing distance=")
                line.write(number: hit.distance)
            }
            return .sent
        }
    }

    /// TAP's handler, one for every framing: the document id and the point
    /// read from a plain line's bytes without making Strings when the
    /// numbers are in their common spelling, else from the parsed request.
    fileprivate enum Tap: TypedCommand {
        struct Arguments {
            /// The document id as sent, not yet checked (the look-up checks it).
            let id: ArraySlice<UInt8>
            let point: PointArguments
        }

        static func arguments(plain line: borrowing PlainRequestLine) -> Arguments? {
            guard let id = line.positionalIndices(0), let point = line.withArguments(PointArguments.init(plain:)) else { return nil }
            return Arguments(id: line.bytes[id], point: point)
        }

        static func arguments(_ request: Request) throws -> Arguments {
            let positional = request.positional
            let point = try PointArguments(request, positional: positional)
            return Arguments(id: ArraySlice(positional[0].utf8), point: point)
        }

        static func handle<Incoming: IncomingRequest>(
            _ arguments: Arguments, of request: Incoming, on connection: Connection, server: Server
        ) throws -> CommandOutcome {
            try server.tap(arguments, of: request, on: connection)
        }
    }

    /// TAP: the point hit-tested in the connection's view of the document
    /// (`ERR ARGS` for an invalid id, `ERR NODOC`, `ERR NOVIEW`). A layout
    /// not yet cached is made now for a small document, or off the loop
    /// (the reply deferred, the request run again when it is ready).
    fileprivate func tap<Incoming: IncomingRequest>(
        _ arguments: Tap.Arguments, of request: Incoming, on connection: Connection
    ) throws -> CommandOutcome {
        let point = arguments.point
        let remembered = try arguments.id.withUnsafeBufferPointer { try documentAndView($0, on: connection) }
        // Held for the whole call: whatever the broadcast inside does to
        // the caches (evict this layout, drop its highlights), the reply
        // is this layout's own (see ``Document/highlight(_:layout:unit:)``).
        let document = remembered.document
        let view = remembered.view
        // Not cached: a small document is laid out now; a large one off
        // the loop, the request run again when its layout is ready.
        guard let layout = layouts.layoutOrDefer(document, view: view, context: { request.context(on: connection, server: self) })
        else { return .deferred }
        let hit = PointHit(document: document, layout: layout, x: point.x, y: point.y, slop: point.slop)
        return tap(hit, document: document, layout: layout, connection: connection, tag: request.replyTag)
    }

    /// The document `id` names and the connection's view of it (its own
    /// view or the document's default); else, in the order the checks
    /// apply, `ERR ARGS` for an invalid id, `ERR NODOC` for no such
    /// document, `ERR NOVIEW` for no view. Remembers the answer for the
    /// next request to the same id (``Session/rememberedView``): a reader
    /// sends one document's id over and over.
    func documentAndView(_ id: UnsafeBufferPointer<UInt8>, on connection: Connection) throws -> Session.RememberedView {
        let session = connection.session
        if let remembered = session.rememberedView, remembered.isCurrent(for: id) { return remembered }
        guard Wire.isDocumentID(id), let document = documents[String(decoding: id, as: UTF8.self)],
            let view = session.viewWithCache(of: document)
        else {
            let id = try Wire.documentID(String(decoding: id, as: UTF8.self))
            _ = try documents.require(id)
            throw LecternProtocolError.noView(id)
        }
        let remembered = Session.RememberedView(id: Array(id), document: document, view: view)
        session.rememberedView = remembered
        return remembered
    }

    fileprivate func attach(_ context: CommandContext) throws -> CommandOutcome {
        let document = try context.document()
        let name = context.arguments[1]
        guard (try? Wire.documentID(name)) != nil else {
            throw ProtocolError(.arguments, "attachment name must be 1 to \(Wire.maximumIDLength) characters of A-Z a-z 0-9 _ - . : / (got '\(name)')")
        }
        let unit = context.unit
        let at = try AttachOptions.at.read(context.request)
        let atEnd = at.lowercased() == "end"
        let offset = atEnd ? document.text.attachmentEnd : try document.utf16Offset(fromWire: at, unit: unit, name: "at")
        let width = try Wire.lengths.read(context.arguments[2], "width")
        let height = try Wire.lengths.read(context.arguments[3], "height")
        let baseline = try context.arguments.count > 4 ? Wire.offsets.read(context.arguments[4], "baseline") : 0
        let isNew = !document.attachments.contains { $0.name == name }
        if isNew && document.attachments.count >= Server.maximumAttachmentsPerDocument {
            throw ProtocolError(.tooMany, "a document holds at most \(Server.maximumAttachmentsPerDocument) attachments")
        }
        let attachment = AttachmentRecord(
            name: name, utf16Offset: offset, width: width, height: height, baseline: baseline, followsTextEnd: atEnd)
        let connection = context.connection
        guard let spec = connection.session.view(of: document), document.text.utf16.count > LayoutService.backgroundThreshold else {
            return try commitAttachment(attachment, to: document, spec: connection.session.view(of: document), layout: nil, context)
        }
        // The reply's rect needs the document laid out with the box in it:
        // for a large document that runs on the pool, before the commit
        // (attachments do not change the shaping, which is reused).
        let text = document.text.utf16
        let shaped = document.cachedShaping(for: spec.font)
        let attachments = document.layoutAttachments(setting: attachment)
        let shaper = layouts.shaper
        let revision = document.revision
        statistics.backgroundReplies += 1
        connection.deferReply()
        BackgroundWork.run(on: loop, {
            LayoutService.compute(text: text, shaped: shaped, spec: spec, attachments: attachments, shaper: shaper)
        }, then: { [unowned self] layout in
            guard documents[document.id] === document, document.revision == revision else {
                // Changed meanwhile: ATTACH again, checked against what it is now.
                connection.redispatchDeferred(context.request)
                return
            }
            connection.completeDeferred({
                try commitAttachment(attachment, to: document, spec: spec, layout: (layout, revision), context)
            }, tag: context.request.tag)
        })
        return .deferred
    }

    /// Stores and applies an ATTACH; the reply gives the box's rect in the
    /// connection's view, from `precomputed` (laid out with the attachment
    /// on the document as it was at `revision`) or laid out now.
    private func commitAttachment(
        _ attachment: AttachmentRecord, to document: Document, spec: LayoutSpec?,
        layout precomputed: (layout: TextLayout, revision: Int)?, _ context: CommandContext
    ) throws -> CommandOutcome {
        let id = document.id
        let name = attachment.name
        let unit = context.unit
        return try commit(context, .setAttachment(attachment, documentID: id)) { [unowned self] revisions in
            let unchangedSinceLayout = precomputed?.revision == document.revision
            document.setAttachment(attachment, revision: revisions[0])
            documentDidChange(document, by: context.connection, created: false, textChanged: false)
            let facts = "ATTACH name=\(name) offset=\(document.wireOffset(attachment.utf16Offset, unit: unit))"
            guard let spec else { return Reply(facts) }
            let layout: TextLayout
            if let precomputed {
                // Kept only if nothing else changed the document since.
                if unchangedSinceLayout { document.store(precomputed.layout, computedAt: document.stamp) }
                layout = precomputed.layout
            } else {
                layout = layouts.layoutNow(document, spec: spec).layout
            }
            guard let index = layout.attachments.firstIndex(where: { $0.name == name }) else { return Reply(facts) }
            let line = layout.lines.firstIndex { $0.attachments.contains(index) } ?? 0
            return Reply(facts + " rect=\(Wire.rect(layout.attachmentFrames[index])) line=\(line)")
        }
    }

    /// The most attachments one document may have.
    static let maximumAttachmentsPerDocument = 1000
}

extension Document {
    /// ``layoutAttachments`` as they will be once `attachment` is set
    /// (replacing the one of its name, or added): built the same way, from
    /// the list ``setAttachment(_:)`` will make.
    fileprivate func layoutAttachments(setting attachment: AttachmentRecord) -> [InlineAttachment] {
        var list = attachments
        list.set(attachment)
        return list.layoutAttachments(end: text.attachmentEnd)
    }
}

extension CommandContext {
    /// Runs `body` with the document named by the first argument and its
    /// layout in this connection's view (`ERR NODOC`, `ERR NOVIEW`); if the
    /// layout has to be computed off the loop first, the request is run
    /// again when it is ready (see ``LayoutService/layoutOrDefer(_:view:context:)``).
    func withView(_ body: (Document, CachedLayout) throws -> Reply) throws -> CommandOutcome {
        try withView(outcome: { document, layout in .reply(try body(document, layout)) })
    }

    /// ``withView(_:)`` for a body that may send its reply itself.
    func withView(outcome body: (Document, CachedLayout) throws -> CommandOutcome) throws -> CommandOutcome {
        var text = arguments[0]
        let remembered = try text.withUTF8 { try server.documentAndView($0, on: connection) }
        let document = remembered.document
        let view = remembered.view
        guard let layout = server.layouts.layoutOrDefer(document, view: view, context: { self }) else { return .deferred }
        return try body(document, layout)
    }

    /// `body` with the layout of `document` for `spec` (see ``withView(_:)``).
    func withLayout(_ document: Document, spec: LayoutSpec, _ body: (TextLayout) throws -> Reply) throws -> CommandOutcome {
        try withLayout(document, spec: spec, outcome: { .reply(try body($0)) })
    }

    /// ``withLayout(_:spec:_:)`` for a body that may send its reply itself.
    func withLayout(_ document: Document, spec: LayoutSpec, outcome body: (TextLayout) throws -> CommandOutcome) throws -> CommandOutcome {
        guard let layout = server.layouts.layoutOrDefer(document, spec: spec, context: self) else { return .deferred }
        return try body(layout.layout)
    }
}

extension LayoutSpec {
    /// A spec from VIEW's `key=value` arguments (``ViewOptions``);
    /// `ERR NUMBER`/`ERR ARGS` on bad values, and for insets that leave
    /// the text no width.
    init(viewArguments request: Request) throws {
        let width = try ViewOptions.width.read(request)
        let insets = try ViewOptions.insets.read(request)
        guard insets.left + insets.right < width else {
            throw ProtocolError(.number, "insets leave no room for text: left \(Wire.number(insets.left)) + right \(Wire.number(insets.right)) must be less than the width, \(Wire.number(width)) points")
        }
        self.init(
            font: FontSpec(
                family: try ViewOptions.font.read(request) ?? FontSpec.defaultSans.family,
                weight: try ViewOptions.weight.read(request), italic: try ViewOptions.italic.read(request)),
            width: width, fontSize: try ViewOptions.size.read(request),
            lineHeight: try ViewOptions.lineHeight.read(request), paragraphSpacing: try ViewOptions.paragraphSpacing.read(request),
            insets: insets)
    }
}
