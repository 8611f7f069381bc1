// DocumentCommands.swift: HELLO, PUT, GET, DEL, LIST, SENTENCES.

import LecternProtocol
import LecternText

extension Server {
    /// Commands about documents.
    static let documentCommands: [Command] = [
        Command(
            name: "PUT", syntax: "<id> (\"text\" | {bytes} | <<WORD)",
            options: [DocumentOptions.language, DocumentOptions.mode],
            summary: "Stores a document (creating or replacing it) and splits it into sentences.",
            details: [
                "PUT intro lang=en \"One. Two.\"        -> OK PUT id=intro revision=… lang=en languages=en rules=en …",
                "PUT intro lang=ko {9}<CRLF>One. Two.  (a literal: exactly 9 bytes follow; options go before it)",
                "PUT intro <<END ... END               (a heredoc: the lines up to END)",
                "lang= is a hint: each paragraph's language comes from its script (Hangul ko, kana ja, Cyrillic ru…) and, for Latin script, its commonest words; the hint wins where the script cannot tell (uk for Cyrillic, zh-Hant for Han, any Latin-script tag for Latin).",
                "languages= in the reply: the paragraphs' languages, in order of first appearance; lang= the hint, else the language of the most text.",
                "rules= in the reply: the document language's reader rules, generic (none of its own) or uax29 (mode=uax29).",
            ],
            acceptsPayload: true,
            handler: { context in try context.server.put(context) }),
        Command(
            name: "GET", syntax: "<id>",
            summary: "Returns a document's exact text as a literal, and its facts.",
            details: ["GET intro   -> * {9} / One. Two. / OK GET id=intro revision=… bytes=9 …"],
            handler: { context in
                let document = try context.document()
                let text = document.text
                let facts = "GET " + context.server.documentFacts(document, unit: context.unit)
                return try context.sendBuiltReply(
                    offLoop: text.utf16.count > LargeReply.textThreshold, describing: "the text of '\(document.id)'",
                    hint: "the text cannot be sent in pieces; start the daemon with a larger --output-hard-limit"
                ) { reply in
                    reply.literal(text.string)
                    return facts
                }
            }),
        Command(
            name: "DEL", syntax: "<id>",
            summary: "Deletes a document; its watchers get a DELETED event.",
            details: ["DEL intro   -> OK DEL id=intro"],
            handler: { context in
                let server = context.server
                let id = try Wire.documentID(context.arguments[0])
                _ = try server.documents.require(id)
                return try server.commit(context, .delete(id: id)) { _ in
                    // Another connection (or node) may have deleted it meanwhile.
                    if let document = server.documents[id] { server.delete(document, by: context.connection) }
                    return Reply("DEL id=\(id)")
                }
            }),
        Command(
            name: "LIST", syntax: "[prefix]",
            summary: "Lists documents (optionally those whose id starts with prefix), in id order.",
            details: ["LIST        -> * intro revision=1 bytes=9 sentences=2 … / OK LIST 1"],
            handler: { context in
                let server = context.server
                let unit = context.unit
                let prefix = context.arguments.first ?? ""
                if server.cluster != nil { return server.listFromRedis(context, prefix: prefix, unit: unit) }
                guard server.documents.count <= LargeReply.itemThreshold else {
                    return server.listMany(context, ids: server.documents.allIDs, prefix: prefix, unit: unit)
                }
                let lines = server.documents.ids(withPrefix: prefix).compactMap { id in
                    server.documents[id].map { DocumentFacts($0, unit: unit).line }
                }
                return .reply(Reply("LIST \(lines.count)", data: lines))
            }),
        Command(
            name: "SENTENCES", syntax: "<id> [from] [count]",
            summary: "Lists sentences: number, range, trimmed content range, paragraph, its language and text.",
            details: [
                "SENTENCES intro       -> * sentence 0 range=0..5 content=0..4 paragraph=0 lang=en text=\"One.\" / … / OK SENTENCES 2 of 2",
                "SENTENCES intro 10 5  -> sentences 10 to 14",
            ],
            handler: { context in
                let document = try context.document()
                let total = document.sentences.count
                let from = try context.arguments.count > 1 ? Wire.integer(context.arguments[1], "from") : 0
                let count = try context.arguments.count > 2
                    ? Wire.integer(context.arguments[2], "count") : total
                guard from <= total else {
                    throw ProtocolError(.range, "from \(from) is past the last sentence; '\(document.id)' has \(total)")
                }
                let end = min(total, from + min(count, total))
                let unit = context.unit
                let text = document.text
                let sentences = document.sentences
                let covered = from < end ? sentences[end - 1].range.upperBound - sentences[from].range.lowerBound : 0
                return try context.sendBuiltReply(
                    offLoop: end - from > LargeReply.itemThreshold || covered > LargeReply.textThreshold,
                    describing: "\(end - from) sentences of '\(document.id)'",
                    hint: "ask for fewer at a time with SENTENCES <id> <from> <count>"
                ) { reply in
                    for number in from..<end {
                        let sentence = sentences[number]
                        reply.data(text.sentenceLine(sentence, unit: unit, language: sentences.language(ofParagraph: sentence.paragraph)))
                    }
                    return "SENTENCES \(end - from) of \(total)"
                }
            }),
    ]

    /// `id=… revision=… bytes=… length=… sentences=… paragraphs=… lang=… languages=… rules=… mode=…`
    func documentFacts(_ document: Document, unit: OffsetUnit) -> String {
        DocumentFacts(document, unit: unit).line
    }

    private func put(_ context: CommandContext) throws -> CommandOutcome {
        let request = context.request
        let id = try Wire.documentID(context.arguments[0])
        let bytes: [UInt8]
        switch (request.payload, context.arguments.count) {
        case (let payload?, 1): bytes = payload
        case (nil, 2): bytes = Array(context.arguments[1].utf8)
        case (nil, _):
            throw ProtocolError(.arguments, "PUT needs the text: quoted, a {bytes} literal or a <<WORD heredoc")
        default:
            throw ProtocolError(.arguments, "PUT takes the text once: quoted or as a payload, not both")
        }
        let language = try DocumentOptions.language.read(request)
        let mode = SentenceMode(rawValue: try DocumentOptions.mode.read(request)) ?? .reader
        // With --redis, Redis counts the documents (the write script).
        if try documents.existing(id) == nil && !documents.isCache && documents.count >= configuration.maximumDocuments {
            throw ProtocolError(.tooMany, "the daemon holds at most \(configuration.maximumDocuments) documents (--max-documents); DEL some first")
        }
        let connection = context.connection
        let store = { [unowned self] (content: DocumentContent) throws -> CommandOutcome in
            let record = content.record(id: id, attachments: documents[id]?.attachments ?? [])
            return try commit(context, .put(record)) { [unowned self] revisions in
                let (document, created) = try documents.put(id, content: content, revision: revisions[0], limit: configuration.maximumDocuments)
                documentDidChange(document, by: connection, created: created)
                return Reply("PUT " + documentFacts(document, unit: connection.session.unit))
            }
        }
        guard bytes.count > LayoutService.backgroundThreshold * 2 else {
            return try store(DocumentContent(utf8: bytes, language: language, mode: mode))
        }
        // Segmenting a large text takes milliseconds: do it on the pool.
        connection.deferReply()
        BackgroundWork.run(on: loop, { () -> Result<DocumentContent, ProtocolError> in
            do {
                return .success(try DocumentContent(utf8: bytes, language: language, mode: mode))
            } catch {
                return .failure(ProtocolError(reporting: error))
            }
        }, then: { result in
            connection.completeDeferred({ try store(result.get()) }, tag: request.tag)
        })
        return .deferred
    }
}

extension CommandContext {
    /// The document named by the first argument (`ERR ARGS` for a bad id,
    /// `ERR NODOC` for none).
    func document() throws -> Document {
        try server.documents.require(Wire.documentID(arguments[0]))
    }
}

/// What GET, PUT and LIST say about a document, as values: a reply can be
/// formatted from them off the loop thread.
struct DocumentFacts: Sendable {
    let id: String
    let revision: Int
    let bytes: Int
    let length: Int
    let sentences: Int
    let paragraphs: Int
    let language: String
    /// The paragraphs' languages, each once, in order of first appearance,
    /// joined by commas (at most a score of short tags).
    let languages: String
    /// The reader rules applied (``Language/rules``, or `uax29`).
    let rules: String
    let mode: SentenceMode
    let attachments: Int

    /// Reads only numbers and two strings (no copy of the text's tables).
    init(_ document: Document, unit: OffsetUnit) {
        id = document.id
        revision = document.revision
        bytes = document.text.indexMap.utf8Length
        length = document.text.indexMap.length(in: unit)
        sentences = document.sentences.count
        paragraphs = document.text.paragraphs.count
        language = document.sentences.language.tag
        languages = document.sentences.languages.map(\.tag).joined(separator: ",")
        rules = document.mode == .uax29 ? SentenceMode.uax29.rawValue : document.sentences.language.rules
        mode = document.mode
        attachments = document.attachments.count
    }

    /// `id=… revision=… bytes=… length=… sentences=… paragraphs=… lang=… languages=… rules=… mode=… attachments=…`
    var line: String {
        "id=\(id) revision=\(revision) bytes=\(bytes) length=\(length) sentences=\(sentences)"
            + " paragraphs=\(paragraphs) lang=\(language) languages=\(languages) rules=\(rules) mode=\(mode.rawValue) attachments=\(attachments)"
    }
}

extension Server {
    /// Documents whose facts LIST reads on the loop thread per loop turn.
    static let listChunk = 1024

    /// LIST with many documents, none of it a long stretch on the loop
    /// thread: the ids are filtered and sorted on the thread pool, their
    /// facts read on the loop thread ``listChunk`` documents per turn (a
    /// document deleted meanwhile is left out), the reply formatted on the pool.
    fileprivate func listMany(_ context: CommandContext, ids: [String], prefix: String, unit: OffsetUnit) -> CommandOutcome {
        statistics.backgroundReplies += 1
        context.connection.deferReply()
        BackgroundWork.run(on: loop, {
            ids.filter { $0.hasPrefix(prefix) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }, then: { [unowned self] sorted in
            gatherFacts(of: sorted, from: 0, into: FactsBox(capacity: sorted.count), unit: unit, context)
        })
        return .deferred
    }

    /// One chunk of ``listMany(_:prefix:unit:)``'s facts; the next chunk
    /// waits for the next loop turn (a round trip through the pool).
    private func gatherFacts(of ids: [String], from start: Int, into box: FactsBox, unit: OffsetUnit, _ context: CommandContext) {
        let connection = context.connection
        let end = min(ids.count, start + Self.listChunk)
        for id in ids[start..<end] {
            if let document = documents[id] { box.facts.append(DocumentFacts(document, unit: unit)) }
        }
        if end < ids.count && !connection.isClosing {
            BackgroundWork.run(on: loop, {}, then: { [unowned self] in
                gatherFacts(of: ids, from: end, into: box, unit: unit, context)
            })
            return
        }
        let facts = box.facts
        box.facts = []
        let make = context.replyMaker(describing: "the list of \(facts.count) documents", hint: "list fewer at a time with LIST <prefix>") { reply in
            for fact in facts { reply.data(fact.line) }
            return "LIST \(facts.count)"
        }
        let tag = context.request.tag
        BackgroundWork.run(on: loop, make, then: { result in
            connection.completeDeferredReply(encoded: result, tag: tag)
        })
    }

    /// LIST with `--redis`: the ids come from Redis's index; documents this
    /// node has not cached are loaded first (``listLoadChunk`` at a time), then
    /// listed as ``listMany(_:ids:prefix:unit:)`` lists.
    fileprivate func listFromRedis(_ context: CommandContext, prefix: String, unit: OffsetUnit) -> CommandOutcome {
        guard let cluster else { preconditionFailure("listFromRedis without --redis") }
        let connection = context.connection
        let tag = context.request.tag
        connection.deferReply()
        cluster.ids(withPrefix: prefix) { [unowned self] result in
            guard case .success(let ids) = result else {
                if case .failure(let error) = result { connection.completeDeferredReply(.failure(error), tag: tag) }
                return
            }
            // Loaded a chunk at a time (each may be a large text).
            var failure: ProtocolError?
            inChunks(ids.filter { documents[$0] == nil }, of: Self.listLoadChunk, { [unowned self] chunk, next in
                var remaining = chunk.count
                for id in chunk {
                    refresh(id, origin: .redis) { loaded in
                        if case .failure(let error) = loaded { failure = error }
                        remaining -= 1
                        if remaining == 0 { failure == nil && !connection.isClosing ? next() : finishLoading() }
                    }
                }
            }, then: finishLoading)
            func finishLoading() {
                if let failure { return connection.completeDeferredReply(.failure(failure), tag: tag) }
                _ = listMany(context, ids: ids, prefix: prefix, unit: unit)
            }
        }
        return .deferred
    }

    /// LIST's facts as they are gathered (loop thread only).
    private final class FactsBox {
        var facts: [DocumentFacts] = []
        init(capacity: Int) { facts.reserveCapacity(capacity) }
    }
}
