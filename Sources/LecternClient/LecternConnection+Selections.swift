// LecternConnection+Selections.swift: SELECT, SELECTION, CLEAR, COPY, MOVE.

extension LecternConnection {
    /// Toggles the sentence under `point` in this connection's selection.
    /// Watchers see ``DocumentEvent/Kind/select(added:sentence:range:rects:outline:)``.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/noView``, ``LecternErrorCode/number``.
    @discardableResult
    public func select(_ id: String, at point: Point, slop: Double? = nil) async throws -> SelectResult {
        try SelectResult(try await request(pointRequest("SELECT", id, point, slop: slop)))
    }

    /// The selected sentences in text order, with their highlights when
    /// this connection has a view (empty rects and outline otherwise).
    ///
    /// - Throws: ``LecternErrorCode/noDocument``.
    public func selection(of id: String) async throws -> [Highlight] {
        var line = RequestLine("SELECTION")
        line.word(id)
        return try Highlight.all(in: try await request(line).dataFields())
    }

    /// Empties this connection's selection in the document.
    ///
    /// - Returns: how many sentences were selected.
    /// - Throws: ``LecternErrorCode/noDocument``.
    @discardableResult
    public func clear(_ id: String) async throws -> Int {
        var line = RequestLine("CLEAR")
        line.word(id)
        return try await request(line).fields().int("removed")
    }

    /// Appends the selected sentences to document `target` (created if
    /// missing) as a new last paragraph, and clears the selection.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/arguments`` (nothing selected, same document).
    @discardableResult
    public func copy(_ id: String, to target: String) async throws -> CopyResult {
        try CopyResult(try await request(transfer("COPY", id, target)).fields())
    }

    /// Like ``copy(_:to:)``, and removes the sentences from `id`.
    ///
    /// - Throws: as ``copy(_:to:)``.
    @discardableResult
    public func move(_ id: String, to target: String) async throws -> MoveResult {
        try MoveResult(try await request(transfer("MOVE", id, target)).fields())
    }

    private func transfer(_ command: String, _ id: String, _ target: String) -> RequestLine {
        var line = RequestLine(command)
        line.word(id)
        line.option("to", target)
        return line
    }
}
