// LecternConnection+Documents.swift: PUT, GET, DEL, LIST, SENTENCES.

extension LecternConnection {
    /// Stores a document, creating it or replacing its text, and splits it
    /// into paragraphs and sentences. The text travels as a literal
    /// (`{N}` and its bytes), so it arrives byte for byte.
    ///
    /// - Parameters:
    ///   - id: 1 to 128 characters of `A–Z a–z 0–9 _ - . : /`.
    ///   - language: a BCP 47 language tag (`en`, `ko`, `pt-BR`, `zh-Hant-TW`) with a
    ///     primary subtag ICU knows; ``DocumentInfo/rules`` says which rules it gets.
    ///     Default: detected from the script (Latin script: from the commonest words).
    ///   - mode: sentence splitting; default ``SegmentationMode/reader``.
    /// - Throws: ``LecternErrorCode/arguments`` (a bad id or language tag), ``LecternErrorCode/payloadTooLarge``, ``LecternErrorCode/tooMany``.
    @discardableResult
    public func put(_ id: String, text: String, language: String? = nil, mode: SegmentationMode? = nil) async throws -> DocumentInfo {
        try await put(id, bytes: Array(text.utf8), language: language, mode: mode)
    }

    /// Stores a document from raw bytes, which must be UTF-8.
    ///
    /// - Throws: as ``put(_:text:language:mode:)``, and
    ///   ``LecternErrorCode/invalidUTF8`` (with the offset of the first bad byte) when they are not UTF-8.
    @discardableResult
    public func put(_ id: String, bytes: [UInt8], language: String? = nil, mode: SegmentationMode? = nil) async throws -> DocumentInfo {
        var line = RequestLine("PUT")
        line.word(id)
        if let language { line.option("lang", language) }
        if let mode { line.option("mode", mode.rawValue) }
        line.literal(bytes)
        return try DocumentInfo(try await request(line).fields())
    }

    /// A document's exact text and facts.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``.
    public func get(_ id: String) async throws -> DocumentText {
        var line = RequestLine("GET")
        line.word(id)
        let reply = try await request(line)
        guard case .literal(let bytes)? = reply.data.first else {
            throw LecternError.malformedReply("GET reply without the text literal")
        }
        return DocumentText(bytes: bytes, info: try DocumentInfo(try reply.fields()))
    }

    /// Deletes a document; its watchers get ``DocumentEvent/Kind/deleted``.
    /// This connection's view and watch of it are forgotten.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``.
    public func delete(_ id: String) async throws {
        var line = RequestLine("DEL")
        line.word(id)
        _ = try await request(line)
        withLock { state in
            state.session.views.removeValue(forKey: id)
            state.session.watches.remove(id)
        }
    }

    /// The documents whose id starts with `prefix` (all by default), in byte order of ids.
    public func list(prefix: String? = nil) async throws -> [DocumentInfo] {
        var line = RequestLine("LIST")
        if let prefix { line.word(prefix) }
        return try await request(line).dataFields().map(DocumentInfo.init)
    }

    /// Part of a document's sentence table: `count` sentences (all by
    /// default) from number `from`.
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/range`` (`from` past the end).
    public func sentences(of id: String, from: Int = 0, count: Int? = nil) async throws -> SentencePage {
        var line = RequestLine("SENTENCES")
        line.word(id)
        line.word(String(from))
        if let count { line.word(String(count)) }
        let reply = try await request(line)
        let total = try reply.fields().int(at: 3)
        return SentencePage(sentences: try reply.dataFields().map(Sentence.init), total: total)
    }
}
