// DocumentRegistry.swift: the documents the daemon holds, by id.

import LecternProtocol

/// With `--redis`, the registry is the node's cache of the documents in
/// Redis: a document it lacks may exist there. Looking one up then throws
/// this, and the request gate loads it and runs the request again
/// (``Server/loadMissingDocument(_:for:on:)``).
struct DocumentMiss: Error {
    let id: String
}

/// All documents, by id, with the document-count limit. Loop thread only.
struct DocumentRegistry {
    private var byID: [String: Document] = [:]
    /// Whether this is a cache of Redis's documents (``DocumentMiss``).
    var isCache = false
    /// With a cache: ids Redis has just said it does not have, while the
    /// request that asked runs again (so that it gets `ERR NODOC`).
    var confirmedAbsent: Set<String> = []

    var count: Int { byID.count }

    subscript(id: String) -> Document? { byID[id] }

    /// The document, or `ERR NODOC`.
    func require(_ id: String) throws -> Document {
        guard let document = try existing(id) else { throw LecternProtocolError.noDocument(id) }
        return document
    }

    /// The document, or nil when there is none.
    /// - Throws: ``DocumentMiss`` when this is a cache that must ask Redis first.
    func existing(_ id: String) throws -> Document? {
        if let document = byID[id] { return document }
        if isCache && !confirmedAbsent.contains(id) { throw DocumentMiss(id: id) }
        return nil
    }

    /// Every id, in no particular order: a copy, to filter and sort elsewhere.
    var allIDs: [String] { Array(byID.keys) }

    /// Ids in byte order, optionally only those starting with `prefix`.
    func ids(withPrefix prefix: String = "") -> [String] {
        byID.keys.filter { $0.hasPrefix(prefix) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Creates a document, or replaces an existing one's content, as the
    /// store's write `revision` committed it.
    /// - Throws: `ERR TOOMANY` when creating past `limit`.
    mutating func put(_ id: String, content: DocumentContent, revision: Int, limit: Int) throws -> (Document, created: Bool) {
        if let existing = byID[id] {
            existing.replace(with: content, revision: revision)
            return (existing, false)
        }
        guard isCache || byID.count < limit else {
            throw ProtocolError(.tooMany, "the daemon holds at most \(limit) documents (--max-documents); DEL some first")
        }
        let document = Document(id: id, content: content, revision: revision)
        byID[id] = document
        return (document, true)
    }

    /// Adds a document read back from the store at start-up.
    mutating func restore(_ document: Document) {
        byID[document.id] = document
    }

    /// Removes a document; what was cached about it stops being current
    /// (``Document/retire()``), so nothing finds it under its id any more.
    @discardableResult
    mutating func remove(_ id: String) -> Document? {
        let document = byID.removeValue(forKey: id)
        document?.retire()
        return document
    }
}
