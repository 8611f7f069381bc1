// LecternConnection+Views.swift: VIEW, LINES, TAP, RECTS, CARET, RENDER, ATTACH, DETACH.

extension LecternConnection {
    /// Sets this connection's view of a document and lays it out. One view
    /// per document; calling it again replaces it. Remembered: a reconnect repeats it.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/arguments``, ``LecternErrorCode/number``.
    @discardableResult
    public func view(_ id: String, _ options: ViewOptions) async throws -> ViewInfo {
        var line = RequestLine("VIEW")
        line.word(id)
        line.options(options.arguments)
        let info = try ViewInfo(try await request(line).fields())
        withLock { $0.session.views[id] = options }
        return info
    }

    /// The view's line table, top to bottom.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/noView``.
    public func lines(of id: String) async throws -> [Line] {
        var line = RequestLine("LINES")
        line.word(id)
        return try await request(line).dataFields().map(Line.init)
    }

    /// The view's line table with the runs of each line (``Line/runs``) and
    /// the fonts they are drawn in (`LINES id runs=yes`): the family, file
    /// and face index of the requested font and of every fallback font that
    /// drew part of the text, so that a client drawing the text itself uses
    /// the same fonts at the same places. Run ranges are in the connection's unit.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/noView``,
    ///   ``LecternError/malformedReply(_:)`` from a daemon that does not report runs.
    public func lineRuns(of id: String) async throws -> LineRuns {
        var line = RequestLine("LINES")
        line.word(id)
        line.option("runs", "yes")
        return try LineRuns(try await request(line))
    }

    /// What is under `point` in the view: a sentence with its highlight, an
    /// inline attachment, or a miss. A point farther than `slop` points
    /// (default 0) from the text misses. Watchers see a hit as
    /// ``DocumentEvent/Kind/tap(sentence:range:rects:outline:)``.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/noView``, ``LecternErrorCode/number``.
    public func tap(_ id: String, at point: Point, slop: Double? = nil) async throws -> TapResult {
        try TapResult(try await request(pointRequest("TAP", id, point, slop: slop)))
    }

    /// A sentence's highlight in the view.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/noView``, ``LecternErrorCode/range``.
    public func rects(_ id: String, sentence: Int) async throws -> Highlight {
        var line = RequestLine("RECTS")
        line.word(id)
        line.word(String(sentence))
        return try Highlight.one(in: try await request(line).dataFields())
    }

    /// The caret at `offset` (in the connection's unit).
    ///
    /// - Throws: ``LecternErrorCode/noView``, ``LecternErrorCode/range``
    ///   (outside the text, or inside a character).
    public func caret(_ id: String, at offset: Int) async throws -> Caret {
        var line = RequestLine("CARET")
        line.word(id)
        line.word(String(offset))
        return try Caret(try await request(line).fields())
    }

    /// The view drawn as SVG, for people to look at (debugging a layout,
    /// a bug report): this connection's selection highlighted, plus
    /// `sentence` if given, a caret at `caret`, and with `boxes` every line
    /// box and baseline.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/noView``, ``LecternErrorCode/range``.
    public func render(_ id: String, sentence: Int? = nil, caret: Int? = nil, boxes: Bool? = nil) async throws -> Rendering {
        var line = RequestLine("RENDER")
        line.word(id)
        if let sentence { line.option("sentence", String(sentence)) }
        if let caret { line.option("caret", String(caret)) }
        if let boxes { line.option("boxes", boxes ? "yes" : "no") }
        return try Rendering(try await request(line))
    }

    /// Puts an inline box into the text flow; it wraps together with the
    /// word before it. An existing attachment of that name is replaced.
    ///
    /// - Parameters:
    ///   - position: an offset, or ``AttachmentPosition/end`` to follow the end of the text.
    ///   - width: from 0 to 10,000 points; `height` likewise.
    ///   - baseline: how far the box's bottom sits below the baseline (negative raises it).
    /// - Returns: where it landed; the rect and line only when this connection has a view.
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/range``, ``LecternErrorCode/number``, ``LecternErrorCode/tooMany``.
    @discardableResult
    public func attach(
        _ id: String, name: String, at position: AttachmentPosition, width: Double, height: Double, baseline: Double? = nil
    ) async throws -> AttachmentPlacement {
        var line = RequestLine("ATTACH")
        line.word(id)
        line.word(name)
        line.option("at", position.wire)
        line.word(WireValue.number(width))
        line.word(WireValue.number(height))
        if let baseline { line.word(WireValue.number(baseline)) }
        return try AttachmentPlacement(try await request(line).fields())
    }

    /// Removes an inline attachment.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/noAttachment``.
    public func detach(_ id: String, name: String) async throws {
        var line = RequestLine("DETACH")
        line.word(id)
        line.word(name)
        _ = try await request(line)
    }

    /// `COMMAND id x y [slop=]`, shared by TAP and SELECT.
    func pointRequest(_ command: String, _ id: String, _ point: Point, slop: Double?) -> RequestLine {
        var line = RequestLine(command)
        line.word(id)
        line.word(WireValue.number(point.x))
        line.word(WireValue.number(point.y))
        if let slop { line.option("slop", WireValue.number(slop)) }
        return line
    }
}
