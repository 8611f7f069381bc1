// SelectionCommands.swift: SELECT, SELECTION, CLEAR, COPY, MOVE.

import LecternLayout
import LecternProtocol
import LecternText

extension Server {
    /// Commands for collecting sentences and moving them between documents.
    static let selectionCommands: [Command] = [
        Command(
            name: "SELECT", syntax: "<id> <x> <y> [slop=<pt>]", minimumArguments: 3, maximumArguments: 3,
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
            name: "SELECTION", syntax: "<id>", minimumArguments: 1, maximumArguments: 1,
            summary: "The selected sentences in text order, each with its rects and outline in the view.",
            details: ["SELECTION intro -> * sentence 0 … / * rects … / * outline … / … / OK SELECTION 2"],
            handler: { context in
                let server = context.server
                let document = try server.documents.require(Wire.documentID(context.arguments[0]))
                let numbers = document.selections[context.connection.id, default: []].sorted()
                let unit = context.connection.session.unit
                let reply = { (layout: TextLayout?) -> Reply in
                    Reply("SELECTION \(numbers.count)", data: numbers.flatMap {
                        document.highlightLines(document.sentences[$0], layout: layout, unit: unit)
                    })
                }
                guard let spec = context.connection.session.view(of: document) else { return .reply(reply(nil)) }
                return try context.withLayout(document, spec: spec) { reply($0) }
            }),
        Command(
            name: "CLEAR", syntax: "<id>", minimumArguments: 1, maximumArguments: 1,
            summary: "Empties this connection's selection in a document.",
            details: ["CLEAR intro -> OK CLEAR removed=2"],
            handler: { context in
                let server = context.server
                let document = try server.documents.require(Wire.documentID(context.arguments[0]))
                let removed = document.selections.removeValue(forKey: context.connection.id)?.count ?? 0
                if removed > 0 {
                    server.broadcast(document, from: context.connection, range: nil) { _ in
                        "CLEAR \(document.id) by=\(context.connection.id)"
                    }
                }
                return .reply(Reply("CLEAR removed=\(removed)"))
            }),
        Command(
            name: "COPY", syntax: "<id> to=<other>", minimumArguments: 1, maximumArguments: 1,
            summary: "Appends the selected sentences to another document (created if missing) as a new paragraph.",
            details: ["COPY intro to=notes -> OK COPY sentences=2 to=notes revision=… (selection cleared)"],
            handler: { context in try context.server.transferSelection(context, removingFromSource: false) }),
        Command(
            name: "MOVE", syntax: "<id> to=<other>", minimumArguments: 1, maximumArguments: 1,
            summary: "Like COPY, and removes the sentences from the source document.",
            details: ["MOVE intro to=notes -> OK MOVE sentences=2 to=notes revision=… source-revision=…"],
            handler: { context in try context.server.transferSelection(context, removingFromSource: true) }),
    ]

    fileprivate func toggleSelection(
        _ point: PointHit, document: Document, layout: TextLayout, context: CommandContext
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
        var selected = document.selections[connection.id, default: []]
        let added = selected.insert(sentence.number).inserted
        if !added { selected.remove(sentence.number) }
        document.selections[connection.id] = selected.isEmpty ? nil : selected
        connection.session.selectedDocuments.insert(document.id)
        let verb = added ? "added" : "removed"
        broadcast(document, from: connection, range: sentence.content) { unit in
            "SELECT \(document.id) by=\(connection.id) revision=\(document.revision) \(verb) sentence=\(sentence.number) range=\(document.wireRange(sentence.content, unit: unit))"
        }
        return Reply(
            "SELECT \(verb) sentence=\(sentence.number) selected=\(selected.count)",
            data: document.highlightLines(sentence, layout: layout, unit: connection.session.unit))
    }

    fileprivate func transferSelection(_ context: CommandContext, removingFromSource: Bool) throws -> CommandOutcome {
        let verb = removingFromSource ? "MOVE" : "COPY"
        let source = try documents.require(Wire.documentID(context.arguments[0]))
        guard let targetText = context.request.value(for: "to") else {
            throw ProtocolError(.arguments, "\(verb) needs to=<document id>")
        }
        let targetID = try Wire.documentID(targetText)
        guard targetID != source.id else {
            throw ProtocolError(.arguments, "\(verb) needs a different document to=; the source is '\(source.id)'")
        }
        let numbers = document(source, selectedBy: context.connection)
        guard !numbers.isEmpty else {
            throw ProtocolError(.arguments, "nothing is selected in '\(source.id)'; SELECT sentences first")
        }
        if documents[targetID] == nil && documents.count >= configuration.maximumDocuments {
            throw ProtocolError(.tooMany, "the daemon holds at most \(configuration.maximumDocuments) documents (--max-documents)")
        }
        let excerpt = SentenceTransfer.excerpt(of: numbers, in: source)
        let target = documents[targetID]
        let combined = SentenceTransfer.appending(excerpt, to: target?.text.string ?? "")
        let targetContent = DocumentContent(
            text: DocumentText(combined), language: target?.requestedLanguage ?? source.requestedLanguage,
            mode: target?.mode ?? source.mode)
        let targetRecord = targetContent.record(id: targetID, attachments: target?.attachments ?? [])
        var sourceContent: DocumentContent?
        if removingFromSource {
            sourceContent = DocumentContent(
                text: DocumentText(SentenceTransfer.removing(numbers, from: source)),
                language: source.requestedLanguage, mode: source.mode)
        }
        let sourceRecord = sourceContent.map { $0.record(id: source.id, attachments: source.attachments) }
        let connection = context.connection
        // Both documents in one transaction: after a crash or a failed
        // write, the sentences are in one place or the other, never in
        // both and never in neither.
        return try commit(context, store: { store in
            _ = try store.put(all: [targetRecord] + (sourceRecord.map { [$0] } ?? []))
        }) { [unowned self] in
            let (stored, created) = try documents.put(targetID, content: targetContent, limit: configuration.maximumDocuments)
            source.selections[connection.id] = nil
            var facts = "\(verb) sentences=\(numbers.count) to=\(targetID) revision=\(stored.revision)"
            if let sourceContent {
                source.replace(with: sourceContent)
                documentDidChange(source, by: connection, created: false)
                facts += " source-revision=\(source.revision)"
            }
            documentDidChange(stored, by: connection, created: created)
            return Reply(facts)
        }
    }

    private func document(_ document: Document, selectedBy connection: Connection) -> [Int] {
        document.selections[connection.id, default: []].filter { $0 < document.sentences.count }.sorted()
    }
}

/// The text edits behind COPY and MOVE.
enum SentenceTransfer {
    /// The selected sentences' text: each one's trimmed content, joined by a
    /// space where the original had whitespace after it (not in Chinese or
    /// Japanese, which put none between sentences).
    static func excerpt(of numbers: [Int], in document: Document) -> String {
        var result = ""
        for (index, number) in numbers.enumerated() {
            let sentence = document.sentences[number]
            result += document.text.text(in: sentence.content)
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
    static func removing(_ numbers: [Int], from document: Document) -> String {
        let removed = Set(numbers)
        let text = document.text
        var result = ""
        var sentence = 0
        for paragraph in text.paragraphs {
            var kept = ""
            var keptAny = false
            while sentence < document.sentences.count, document.sentences[sentence].range.lowerBound < paragraph.range.upperBound {
                let current = document.sentences[sentence]
                if !removed.contains(sentence) {
                    let start = max(current.range.lowerBound, paragraph.content.lowerBound)
                    let end = min(current.range.upperBound, paragraph.content.upperBound)
                    if start < end { kept += text.text(in: start..<end) }
                    keptAny = true
                }
                sentence += 1
            }
            if keptAny {
                result += kept + text.text(in: paragraph.content.upperBound..<paragraph.range.upperBound)
            }
        }
        return result
    }
}
