// SelectionCommands.swift: SELECT, SELECTION, CLEAR, COPY, MOVE.

import LecternLayout
import LecternProtocol
import LecternStore
import LecternText

extension Server {
    /// Commands for collecting sentences and moving them between documents.
    static let selectionCommands: [Command] = [
        Command(
            name: "SELECT", syntax: "<id> <x> <y>", options: [PointOptions.slop],
            summary: "Toggles the sentence under a point in this connection's selection.",
            details: [
                "SELECT intro 40 12 -> * sentence 0 … / * rects … / * outline … / OK SELECT added sentence=0 selected=1",
                "Selecting it again removes it: OK SELECT removed sentence=0 selected=0",
            ],
            handler: { context in
                let (x, y, slop) = try PointHit.arguments(context)
                return try context.withView { document, layout in
                    context.server.toggleSelection(PointHit(document: document, layout: layout, x: x, y: y, slop: slop),
                                                   document: document, layout: layout, context: context)
                }
            }),
        Command(
            name: "SELECTION", syntax: "<id>",
            summary: "The selected sentences in text order, each with its rects and outline in the view.",
            details: ["SELECTION intro -> * sentence 0 … / * rects … / * outline … / … / OK SELECTION 2"],
            handler: { context in
                let document = try context.document()
                let selected = context.server.readers.selection(of: context.connection, in: document)
                let unit = context.unit
                let text = document.text
                let sentences = document.sentences
                // Large: many sentences, or a few long ones.
                var isLarge = selected.count > LargeReply.itemThreshold
                if !isLarge {
                    let covered = selected.reduce(0) { $0 + ($1 < sentences.count ? sentences[$1].content.count : 0) }
                    isLarge = covered > LargeReply.textThreshold
                }
                let reply = { (layout: TextLayout?) throws -> CommandOutcome in
                    try context.sendBuiltReply(
                        offLoop: isLarge, describing: "SELECTION of \(selected.count) sentences of '\(document.id)'",
                        hint: "CLEAR and select fewer, or COPY them to a document of their own"
                    ) { reply in
                        // One sort, then O(log lines + its graphemes) per sentence.
                        let numbers = selected.filter { $0 < sentences.count }.sorted()
                        for number in numbers {
                            for line in text.highlightLines(sentences[number], layout: layout, unit: unit) { reply.data(line) }
                        }
                        return "SELECTION \(numbers.count)"
                    }
                }
                guard let spec = context.connection.session.view(of: document) else { return try reply(nil) }
                return try context.withLayout(document, spec: spec, outcome: { try reply($0) })
            }),
        Command(
            name: "CLEAR", syntax: "<id>",
            summary: "Empties this connection's selection in a document.",
            details: ["CLEAR intro -> OK CLEAR removed=2"],
            handler: { context in
                let document = try context.document()
                let server = context.server
                let removed = server.readers.clearSelection(of: context.connection, in: document)
                if removed > 0 {
                    server.broadcast(document, from: context.connection, range: nil) { _ in
                        "CLEAR \(document.id) by=\(context.connection.id)"
                    }
                }
                return .reply(Reply("CLEAR removed=\(removed)"))
            }),
        Command(
            name: "COPY", syntax: "<id>", options: [TransferOptions.target],
            summary: "Appends the selected sentences to another document (created if missing) as a new paragraph.",
            details: ["COPY intro to=notes -> OK COPY sentences=2 to=notes revision=… (selection cleared)"],
            handler: { context in try context.server.transferSelection(context, removingFromSource: false) }),
        Command(
            name: "MOVE", syntax: "<id>", options: [TransferOptions.target],
            summary: "Like COPY, and removes the sentences from the source document.",
            details: ["MOVE intro to=notes -> OK MOVE sentences=2 to=notes revision=… source-revision=…"],
            handler: { context in try context.server.transferSelection(context, removingFromSource: true) }),
    ]

    fileprivate func toggleSelection(
        _ point: PointHit, document: Document, layout: CachedLayout, context: CommandContext
    ) -> Reply {
        let sentence: Sentence
        switch point {
        case .sentence(let hitSentence, _):
            sentence = hitSentence
        case .attachment(_, let hit):
            // An attachment is not a sentence: report the miss with the nearest one.
            let probe = hit.grapheme.isEmpty ? hit.offset : hit.grapheme.lowerBound
            return Reply("SELECT " + PointHit.missFacts(distance: hit.distance, nearest: document.sentence(containing: probe)))
        case .miss(let distance, let nearest):
            return Reply("SELECT " + PointHit.missFacts(distance: distance, nearest: nearest))
        }
        let connection = context.connection
        let (added, count) = readers.toggleSelection(sentence.number, of: connection, in: document)
        let verb = added ? "added" : "removed"
        broadcast(document, from: connection, range: sentence.content) { unit in
            "SELECT \(document.id) by=\(connection.id) revision=\(document.revision) \(verb) sentence=\(sentence.number) range=\(document.wireRange(sentence.content, unit: unit))"
        }
        return Reply(
            "SELECT \(verb) sentence=\(sentence.number) selected=\(count)",
            data: document.highlightLines(sentence, layout: layout, unit: connection.session.unit))
    }

    fileprivate func transferSelection(_ context: CommandContext, removingFromSource: Bool) throws -> CommandOutcome {
        let verb = removingFromSource ? "MOVE" : "COPY"
        let source = try context.document()
        let targetID = try TransferOptions.target.read(context.request)
        guard targetID != source.id else {
            throw ProtocolError(.arguments, "\(verb) needs a different document to=; the source is '\(source.id)'")
        }
        let connection = context.connection
        let selected = readers.selection(of: connection, in: source)
        let sentences = source.sentences
        guard selected.contains(where: { $0 < sentences.count }) else {
            throw ProtocolError(.arguments, "nothing is selected in '\(source.id)'; SELECT sentences first")
        }
        if documents[targetID] == nil && documents.count >= configuration.maximumDocuments {
            throw ProtocolError(.tooMany, "the daemon holds at most \(configuration.maximumDocuments) documents (--max-documents)")
        }
        // The new texts are built from values (so, for large documents, on
        // the thread pool), then stored and applied as in any write.
        let target = documents[targetID]
        let sourceText = source.text
        let targetText = target?.text
        let targetLanguage = target?.requestedLanguage ?? source.requestedLanguage
        let targetMode = target?.mode ?? source.mode
        let targetAttachments = target?.attachments ?? []
        let sourceID = source.id
        let sourceLanguage = source.requestedLanguage
        let sourceMode = source.mode
        let sourceAttachments = source.attachments
        let build = { @Sendable () -> SentenceTransfer.Result in
            let numbers = selected.filter { $0 < sentences.count }.sorted()
            let excerpt = SentenceTransfer.excerpt(of: numbers, text: sourceText, sentences: sentences)
            let combined = SentenceTransfer.appending(excerpt, to: targetText?.string ?? "")
            let targetContent = DocumentContent(text: DocumentText(combined), language: targetLanguage, mode: targetMode)
            var sourceContent: DocumentContent?
            if removingFromSource {
                sourceContent = DocumentContent(
                    text: DocumentText(SentenceTransfer.removing(numbers, text: sourceText, sentences: sentences)),
                    language: sourceLanguage, mode: sourceMode)
            }
            return SentenceTransfer.Result(
                count: numbers.count, target: targetContent,
                records: [targetContent.record(id: targetID, attachments: targetAttachments)]
                    + (sourceContent.map { [$0.record(id: sourceID, attachments: sourceAttachments)] } ?? []),
                source: sourceContent)
        }
        let isLarge = sourceText.utf16.count + (targetText?.utf16.count ?? 0) > LargeReply.textThreshold
            || selected.count > LargeReply.itemThreshold
        guard isLarge else { return try commitTransfer(build(), verb: verb, from: source, to: targetID, context) }
        let sourceRevision = source.revision
        let targetRevision = target?.revision
        statistics.backgroundReplies += 1
        connection.deferReply()
        BackgroundWork.run(on: loop, build, then: { [unowned self] result in
            let now = documents[targetID]
            guard documents[sourceID] === source, source.revision == sourceRevision,
                now === target, now?.revision == targetRevision
            else {
                // Either document changed meanwhile: run the request again on what they are now.
                connection.redispatchDeferred(context.request)
                return
            }
            connection.completeDeferred({
                try commitTransfer(result, verb: verb, from: source, to: targetID, context)
            }, tag: context.request.tag)
        })
        return .deferred
    }

    /// Stores both documents of a COPY or MOVE, then applies them and replies.
    private func commitTransfer(
        _ result: SentenceTransfer.Result, verb: String, from source: Document, to targetID: String, _ context: CommandContext
    ) throws -> CommandOutcome {
        let connection = context.connection
        let records = result.records
        // Both documents in one transaction: after a crash or a failed
        // write, the sentences are in one place or the other, never in
        // both and never in neither.
        return try commit(context, store: { store in
            _ = try store.put(all: records)
        }) { [unowned self] in
            let (stored, created) = try documents.put(targetID, content: result.target, limit: configuration.maximumDocuments)
            readers.clearSelection(of: connection, in: source)
            var facts = "\(verb) sentences=\(result.count) to=\(targetID) revision=\(stored.revision)"
            if let sourceContent = result.source {
                source.replace(with: sourceContent)
                documentDidChange(source, by: connection, created: false)
                facts += " source-revision=\(source.revision)"
            }
            documentDidChange(stored, by: connection, created: created)
            return Reply(facts)
        }
    }
}

/// The text edits behind COPY and MOVE: functions of values, so that they
/// can run on the thread pool.
///
/// - Complexity: each is linear in the texts it reads and writes.
enum SentenceTransfer {
    /// What a COPY or MOVE writes: the new target content, the new source
    /// content for a MOVE, and their store records.
    struct Result: Sendable {
        let count: Int
        let target: DocumentContent
        let records: [DocumentRecord]
        let source: DocumentContent?
    }

    /// The selected sentences' text: each one's trimmed content, joined by a
    /// space where the original had whitespace after it (not in Chinese or
    /// Japanese, which put none between sentences).
    static func excerpt(of numbers: [Int], text: DocumentText, sentences: SentenceTable) -> String {
        var result = ""
        for (index, number) in numbers.enumerated() {
            let sentence = sentences[number]
            result += text.text(in: sentence.content)
            if index < numbers.count - 1 && sentence.range.upperBound > sentence.content.upperBound {
                result += " "
            }
        }
        return result
    }

    /// `excerpt` as a new last paragraph of `text`.
    static func appending(_ excerpt: String, to text: String) -> String {
        if text.isEmpty { return excerpt }
        let endsWithBreak = text.hasSuffix("\n") || text.hasSuffix("\u{2029}")
        return text + (endsWithBreak ? "" : "\n") + excerpt
    }

    /// The document's text without the given sentences (each with the
    /// whitespace after it). A paragraph left empty goes with its separator.
    static func removing(_ numbers: [Int], text: DocumentText, sentences: SentenceTable) -> String {
        let removed = Set(numbers)
        var result = ""
        var sentence = 0
        for paragraph in text.paragraphs {
            var kept = ""
            var keptAny = false
            while sentence < sentences.count, sentences[sentence].range.lowerBound < paragraph.range.upperBound {
                let current = sentences[sentence]
                if !removed.contains(sentence) {
                    let start = max(current.range.lowerBound, paragraph.content.lowerBound)
                    let end = min(current.range.upperBound, paragraph.content.upperBound)
                    if start < end { kept += text.text(in: start..<end) }
                    keptAny = true
                }
                sentence += 1
            }
            if keptAny {
                result += kept
                result += text.text(in: paragraph.content.upperBound..<paragraph.range.upperBound)
            }
        }
        return result
    }
}
