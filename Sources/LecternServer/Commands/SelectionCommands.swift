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
                    server.publishReading(document, by: context.connection, .clear)
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
        publishReading(document, by: connection, .select(added: added, sentence: sentence.number, range: sentence.content))
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
        if try documents.existing(targetID) == nil && !documents.isCache && documents.count >= configuration.maximumDocuments {
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
            let combined = SentenceTransfer.appending(excerpt, to: targetText)
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
        return try commit(context, .putAll(records)) { [unowned self] revisions in
            // In the order of `records`: the target's, then the source's.
            guard revisions.count == records.count else {
                throw ProtocolError(.store, "the store returned \(revisions.count) revisions for \(records.count) documents")
            }
            let (stored, created) = try documents.put(
                targetID, content: result.target, revision: revisions[0], limit: configuration.maximumDocuments)
            readers.clearSelection(of: connection, in: source)
            var facts = "\(verb) sentences=\(result.count) to=\(targetID) revision=\(stored.revision)"
            if let sourceContent = result.source {
                source.replace(with: sourceContent, revision: revisions[1])
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

    /// The selected sentences' text, as one paragraph: each one's trimmed
    /// content (blank sentences add nothing), joined as the original spaced
    /// them (``spacing(after:in:)``).
    static func excerpt(of numbers: [Int], text: DocumentText, sentences: SentenceTable) -> String {
        var result: [UInt16] = []
        var previous: Sentence?
        for number in numbers {
            let sentence = sentences[number]
            guard !sentence.content.isEmpty else { continue }
            if let previous { result += spacing(after: previous, in: text).utf16 }
            result += text.utf16[sentence.content]
            previous = sentence
        }
        return String(decoding: result, as: UTF16.self)
    }

    /// What goes between a sentence and the next one of an excerpt. Inside
    /// a paragraph, what the original had: a space after white space,
    /// nothing where nothing followed (Chinese and Japanese put no space
    /// between sentences). After a paragraph's last sentence, whose line
    /// end does not come along: a space, or nothing after a sentence that
    /// ends in an ideographic script's character or punctuation (so
    /// "雨。" then "晴れ。" stay "雨。晴れ。").
    static func spacing(after sentence: Sentence, in text: DocumentText) -> String {
        let after = text.utf16[sentence.content.upperBound..<sentence.range.upperBound]
        let endsParagraph = text.paragraphs.indices.contains(sentence.paragraph)
            && text.paragraphs[sentence.paragraph].range.upperBound <= sentence.range.upperBound
        guard endsParagraph else { return after.isEmpty ? "" : " " }
        guard let last = text.utf16[sentence.content].last else { return "" }
        return isIdeographic(last) ? "" : " "
    }

    /// Whether a UTF-16 unit is a CJK ideograph, kana or CJK or full-width
    /// punctuation: scripts that put no space between sentences.
    static func isIdeographic(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF65: return true
        default: return false
        }
    }

    /// `excerpt` as a new last paragraph of `text`: after its last visible
    /// character, its own line end (LF, CR LF or U+2029; LF if it has none
    /// at its end), then the excerpt, then the line ends that closed `text`
    /// (see ``Paragraph``). White space that dangled at the end of `text`
    /// before its line ends goes.
    static func appending(_ excerpt: String, to text: DocumentText?) -> String {
        guard let text, !excerpt.isEmpty else { return text?.string ?? excerpt }
        let visible = text.trimmedEnd
        let closing = text.utf16[visible...]
        let firstLineEnd = closing.firstIndex { $0 == 0x0A || $0 == 0x0D || $0 == 0x2029 }
        let closingLineEnds = firstLineEnd.map { Array(closing[$0...]) } ?? []
        var lineEnd: [UInt16] = [0x0A]
        if let firstLineEnd, closing[firstLineEnd] == 0x2029 {
            lineEnd = [0x2029]
        } else if let firstLineEnd, closing[firstLineEnd] == 0x0D, firstLineEnd + 1 < closing.endIndex, closing[firstLineEnd + 1] == 0x0A {
            lineEnd = [0x0D, 0x0A]
        }
        var result = Array(text.utf16[..<visible])
        if visible > 0 { result += lineEnd }
        result += excerpt.utf16
        result += closingLineEnds
        return String(decoding: result, as: UTF16.self)
    }

    /// The document's text without the given sentences, each with the
    /// white space after it, so that nothing dangles and nothing is glued:
    /// a paragraph whose last sentence goes ends at the end of the last
    /// sentence kept (no space before its line end); one whose first goes
    /// keeps its indentation. A paragraph left empty goes with its
    /// separator; when the last paragraphs go, the paragraph now last ends
    /// as the text did (with its closing line ends, or none).
    static func removing(_ numbers: [Int], text: DocumentText, sentences: SentenceTable) -> String {
        let removed = Set(numbers)
        var result: [UInt16] = []
        result.reserveCapacity(text.utf16.count)
        /// Where the separator of the last paragraph kept starts in `result`.
        var lastSeparator: Int?
        var droppedLast = false
        var sentence = 0
        for paragraph in text.paragraphs {
            let first = sentence
            while sentence < sentences.count, sentences[sentence].range.lowerBound < paragraph.range.upperBound {
                sentence += 1
            }
            let all = first..<sentence
            let kept = all.filter { !removed.contains($0) }
            // A paragraph keeps what is left of it unless that is only blank
            // sentences (uax29 mode ends one at each closing line end).
            guard let lastKept = kept.last,
                kept.count == all.count || kept.contains(where: { !sentences[$0].content.isEmpty })
            else {
                droppedLast = true
                continue
            }
            droppedLast = false
            if kept.count < all.count, removed.contains(first) {
                result += text.utf16[paragraph.content.lowerBound..<max(paragraph.content.lowerBound, sentences[first].content.lowerBound)]
            }
            let trimsEnd = removed.contains(all.upperBound - 1)
            for number in kept {
                let current = sentences[number]
                let start = max(current.range.lowerBound, paragraph.content.lowerBound)
                let end = number == lastKept && trimsEnd
                    ? current.content.upperBound : min(current.range.upperBound, paragraph.content.upperBound)
                if start < end { result += text.utf16[start..<end] }
            }
            lastSeparator = result.count
            result += text.utf16[paragraph.content.upperBound..<paragraph.range.upperBound]
        }
        if droppedLast, let lastSeparator, let closing = text.paragraphs.last {
            result.replaceSubrange(lastSeparator..., with: text.utf16[closing.content.upperBound..<closing.range.upperBound])
        }
        return String(decoding: result, as: UTF16.self)
    }
}
