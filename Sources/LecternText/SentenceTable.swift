// SentenceTable.swift: the immutable table of a document's sentences.

/// The sentences of a ``DocumentText``: ordered, contiguous UTF-16 ranges that
/// cover the whole text, each with its trimmed content range and paragraph.
///
/// Sentences never cross a paragraph. Whitespace after a sentence belongs to
/// it, so every offset of the text lies in exactly one sentence; a tap on the
/// space after "Hi." selects "Hi.". A blank paragraph is one sentence whose
/// content is empty. Empty text has no sentences.
///
/// ```swift
/// let doc = DocumentText("Dr. Who arrived. He left.")
/// let table = SentenceTable(document: doc)          // reader mode
/// table.count                                       // 2
/// table.language(ofParagraph: 0)                    // en
/// table.sentence(containing: 20)?.content           // 17..<25, "He left."
/// ```
///
/// The table is immutable; an edit builds a new one.
///
/// - Complexity: building is O(n); ``subscript(_:)`` is O(1);
///   ``sentence(containing:)`` is O(log s) for s sentences.
public struct SentenceTable: RandomAccessCollection, Sendable {
    /// The mode the table was built with.
    public let mode: SentenceMode
    /// The document's language: the hint when one was given, else the
    /// language of the most text among the paragraphs (see
    /// ``ParagraphLanguages``). Each paragraph's rules are those of its own
    /// language, ``language(ofParagraph:)``.
    public let language: Language
    /// Each paragraph's language (one byte per paragraph).
    public let paragraphLanguages: ParagraphLanguages
    /// Start of each sentence, then the text's end (count + 1 entries).
    // Inlinable (with the lookups below) so that a lookup in a table that
    // is a class's property needs no copy of the table, and so no retain
    // of each of these arrays, on the server's per-request path.
    @usableFromInline let bounds: [Int32]
    @usableFromInline let contentStarts: [Int32]
    @usableFromInline let contentEnds: [Int32]
    /// The paragraph of each sentence.
    @usableFromInline let paragraphOfSentence: [Int32]

    /// Segments `document`.
    /// - Parameters:
    ///   - mode: ``SentenceMode/reader`` (default) or ``SentenceMode/uax29``.
    ///   - language: the hint (a client's `lang=`): the language of the
    ///     paragraphs whose script does not decide, and the document's
    ///     language. Each paragraph's language is chosen by the rules of
    ///     ``ParagraphLanguages``, in either mode (uax29 mode reports the
    ///     languages but its boundaries do not depend on them).
    public init(document: DocumentText, mode: SentenceMode = .reader, language: Language? = nil) {
        self.mode = mode
        let languages = ParagraphLanguages(document: document, hint: language)
        self.language = languages.document
        paragraphLanguages = languages
        var builder = SentenceTableBuilder(capacity: document.utf16.count / 64 + 1)
        document.utf16.withUnsafeBufferPointer { text in
            switch mode {
            case .uax29:
                guard let breaker = ICUSentenceBreaker(locale: "") else {
                    preconditionFailure("ICU has no root sentence break rules")
                }
                // One pass over the whole text rather than one per paragraph
                // (each new text resets ICU's iterator): UAX #29 always breaks
                // after a paragraph separator (SB4: LF, CR LF and U+2029 are
                // Sep), and no rule looks across one, so the boundaries of
                // the whole text are those of its paragraphs plus the
                // paragraph starts, which `startParagraph` records anyway.
                breaker.forEachBoundary(in: text, range: 0..<text.count) { boundary in
                    builder.addBoundary(boundary, startingParagraphsIn: document.paragraphs)
                }
                builder.startParagraphs(through: text.count, in: document.paragraphs)
            case .reader:
                // One segmenter (and one rules look-up) per distinct language.
                let segmenters = languages.distinct.map { ReaderSegmenter(language: $0) }
                for (index, paragraph) in document.paragraphs.enumerated() {
                    builder.startParagraph(index, at: paragraph.range.lowerBound)
                    segmenters[languages.distinctIndex(ofParagraph: index)].forEachBoundary(in: text, paragraph: paragraph) { builder.addBoundary($0) }
                }
            }
            builder.finish(text: text)
        }
        bounds = builder.bounds
        contentStarts = builder.contentStarts
        contentEnds = builder.contentEnds
        paragraphOfSentence = builder.paragraphs
    }

    @inlinable public var startIndex: Int { 0 }
    /// The number of sentences.
    @inlinable public var endIndex: Int { paragraphOfSentence.count }

    /// Sentence number `number`, in O(1). Traps when out of range, like an
    /// array; use ``sentence(number:)`` for numbers that come from a client.
    @inlinable @inline(__always)
    public subscript(number: Int) -> Sentence {
        Sentence(number: number,
                 range: Int(bounds[number])..<Int(bounds[number + 1]),
                 content: Int(contentStarts[number])..<Int(contentEnds[number]),
                 paragraph: Int(paragraphOfSentence[number]))
    }

    /// Sentence number `number`, or nil when there is no such sentence.
    /// - Complexity: O(1).
    public func sentence(number: Int) -> Sentence? {
        indices.contains(number) ? self[number] : nil
    }

    /// The sentence containing a UTF-16 offset, by binary search. The end
    /// of the text belongs to the last sentence; nil when out of bounds or
    /// when the text is empty.
    /// - Complexity: O(log s).
    @inlinable @inline(__always)
    public func sentence(containing offset: Int) -> Sentence? {
        guard let end = bounds.last, !isEmpty, offset >= 0, offset <= Int(end) else { return nil }
        // The last sentence starting at or before the offset (the first
        // when none does): halving a window, without bounds checks.
        let number = bounds.withUnsafeBufferPointer { starts -> Int in
            var base = 0
            var window = count
            while window > 1 {
                let half = window &>> 1
                if Int(starts[base &+ half]) <= offset { base &+= half }
                window &-= half
            }
            return base
        }
        return self[number]
    }

    /// The language of paragraph `index` of the document (whose rules split
    /// it in reader mode).
    /// - Complexity: O(1).
    public func language(ofParagraph index: Int) -> Language {
        paragraphLanguages.language(ofParagraph: index)
    }

    /// The paragraphs' languages, each once, in order of first appearance
    /// (the document's ``language`` alone for an empty text).
    public var languages: [Language] { paragraphLanguages.distinct }

    /// All sentence ranges (with trailing whitespace), in order.
    public var ranges: [Range<Int>] { map(\.range) }
}

/// Collects boundaries paragraph by paragraph and trims each sentence.
private struct SentenceTableBuilder {
    var bounds: [Int32] = []
    var contentStarts: [Int32] = []
    var contentEnds: [Int32] = []
    var paragraphs: [Int32] = []
    private var paragraph: Int32 = 0
    /// The index of the next paragraph to start.
    private var nextParagraph = 0

    init(capacity: Int) {
        bounds.reserveCapacity(capacity)
        paragraphs.reserveCapacity(capacity)
    }

    /// Starts every paragraph of `paragraphs` not yet started whose range
    /// begins at or before `offset`.
    mutating func startParagraphs(through offset: Int, in paragraphs: [Paragraph]) {
        while nextParagraph < paragraphs.count, paragraphs[nextParagraph].range.lowerBound <= offset {
            startParagraph(nextParagraph, at: paragraphs[nextParagraph].range.lowerBound)
        }
    }

    /// A boundary of the whole text, in increasing order: starts the
    /// paragraphs up to it, then records it unless it starts a paragraph.
    mutating func addBoundary(_ offset: Int, startingParagraphsIn paragraphs: [Paragraph]) {
        startParagraphs(through: offset, in: paragraphs)
        addBoundary(offset)
    }

    mutating func startParagraph(_ index: Int, at offset: Int) {
        paragraph = Int32(index)
        nextParagraph = index + 1
        appendStart(offset)
    }

    /// A boundary inside the current paragraph, in increasing order; one at
    /// the paragraph's start is ignored.
    mutating func addBoundary(_ offset: Int) {
        guard let last = bounds.last, Int(last) < offset else { return }
        appendStart(offset)
    }

    private mutating func appendStart(_ offset: Int) {
        bounds.append(Int32(offset))
        paragraphs.append(paragraph)
    }

    mutating func finish(text: UnsafeBufferPointer<UInt16>) {
        bounds.append(Int32(text.count))
        contentStarts.reserveCapacity(paragraphs.count)
        contentEnds.reserveCapacity(paragraphs.count)
        for k in 0..<paragraphs.count {
            var start = Int(bounds[k]), end = Int(bounds[k + 1])
            while start < end, CharacterClass.isWhiteSpace(text[start]) { start += 1 }
            while end > start, CharacterClass.isWhiteSpace(text[end - 1]) { end -= 1 }
            contentStarts.append(Int32(start))
            contentEnds.append(Int32(end))
        }
    }
}
