// SVGRenderer.swift: a view as SVG: text, sentence marks, highlight rects and outlines, attachments, caret.

extension TextLayout {
    /// Renders the view as a standalone SVG document, for people to look at
    /// and for examples/: the glyphs the layout shaped, drawn as filled
    /// outlines taken from the font files (exact, whatever fonts the viewer
    /// has), over the highlights, with attachments, sentence marks and a
    /// caret. See ``SVGPicture`` for the form of the output.
    ///
    /// The result is at most ``estimatedSVGSize(_:)`` bytes of UTF-8.
    /// - Complexity: as ``svgPicture(_:)`` then ``SVGPicture/draw()``.
    public func renderSVG(_ options: SVGOptions = SVGOptions()) -> String {
        svgPicture(options).draw()
    }

    /// An upper bound on the UTF-8 length of ``renderSVG(_:)`` with these
    /// options, found without writing the picture: a caller can refuse a
    /// picture too large to send before spending the memory to draw it.
    /// See ``SVGPicture/estimatedSize``.
    public func estimatedSVGSize(_ options: SVGOptions = SVGOptions()) -> Int {
        svgPicture(options, budget: 0).estimatedSize
    }

    /// The picture of this view with `options`, measured but not yet
    /// written: its ``SVGPicture/estimatedSize`` is known, and
    /// ``SVGPicture/draw()`` writes it. What RENDER uses, to refuse a
    /// picture over the output limit before writing a byte of it.
    /// - Parameter budget: past this estimate the glyphs' positions are not
    ///   kept (a picture that will be refused costs no memory in proportion
    ///   to it); ``SVGPicture/draw()`` then shapes the text once more.
    /// - Complexity: shaping the text again (``forEachGlyph(_:)``) and
    ///   drawing each distinct glyph's outline once, to measure it; memory
    ///   O(distinct glyphs + glyphs drawn), the latter only within `budget`.
    public func svgPicture(_ options: SVGOptions = SVGOptions(), budget: Int = .max) -> SVGPicture {
        SVGPicture(layout: self, options: options, budget: budget)
    }

    /// Bound of everything but the glyphs (frame, line boxes, highlights,
    /// attachments, sentence marks, caret), found without drawing them:
    /// every element's fixed text is measured from the writer itself (an
    /// element with all its numbers 0); each number is bounded by the
    /// longest number the writer writes; each attachment name by its
    /// escaped length; and each highlight by the most rects its range can
    /// have (one per line it touches, plus one per attachment in it, plus
    /// one per grapheme on right-to-left lines) and four outline points per rect.
    /// - Complexity: O(lines + attachments log attachments + highlights × log lines).
    func nonGlyphBound(_ options: SVGOptions) -> Int {
        let number = SVGSizeBound.anyNumber
        var total = 0
        var frame = SVGWriter(width: spec.width, height: height)
        frame.open()
        frame.close()
        total += frame.output.utf8.count
        if options.showLineBoxes {
            total += lines.count * (SVGSizeBound.rect(SVGStyle.lineBox) + SVGSizeBound.line(SVGStyle.baseline) + 8 * number)
        }
        total += highlightBound(options.highlights)
        for attachment in attachments {
            total += SVGSizeBound.rect(SVGStyle.attachment) + 4 * number
            total += SVGSizeBound.text(SVGStyle.attachmentName) + 2 * number
            total += attachment.name.utf16.reduce(0) { $0 + SVGSizeBound.escapedBytes($1) }
        }
        let marks = options.sentences.reduce(0) { $0 + ($1.lowerBound > 0 ? 1 : 0) }
        total += marks * (SVGSizeBound.line(SVGStyle.sentenceMark) + 4 * number)
        if options.caret != nil { total += SVGSizeBound.rect(SVGStyle.caret) + 4 * number }
        return total
    }

    /// Everything drawn before the glyphs: line boxes and highlights.
    func drawUnderlay(_ options: SVGOptions, into svg: inout SVGWriter) {
        if options.showLineBoxes {
            for line in lines {
                svg.rect(Rect(x: spec.insets.left, y: line.top, width: spec.lineWidth, height: line.height),
                         style: SVGStyle.lineBox)
                svg.line(from: Point(x: spec.insets.left, y: line.baseline),
                         to: Point(x: spec.insets.left + spec.lineWidth, y: line.baseline),
                         style: SVGStyle.baseline)
            }
        }
        for range in options.highlights {
            for rect in selectionRects(for: range) { svg.rect(rect, style: SVGStyle.highlight) }
            for polygon in outline(for: range) {
                svg.polygon(polygon, style: SVGStyle.outline)
            }
        }
    }

    /// Everything drawn over the glyphs: attachments, sentence marks, caret.
    func drawOverlay(_ options: SVGOptions, into svg: inout SVGWriter) {
        for (index, frame) in attachmentFrames.enumerated() {
            svg.rect(frame, style: SVGStyle.attachment)
            svg.text(attachments[index].name, at: Point(x: frame.minX + 2, y: frame.maxY - 3),
                     style: SVGStyle.attachmentName)
        }
        for sentence in options.sentences where sentence.lowerBound > 0 {
            let caret = caretRect(at: sentence.lowerBound)
            svg.line(from: Point(x: caret.midX, y: caret.minY), to: Point(x: caret.midX, y: caret.maxY),
                     style: SVGStyle.sentenceMark)
        }
        if let offset = options.caret { svg.rect(caretRect(at: offset), style: SVGStyle.caret) }
    }

    /// Bound of the highlights' rects and outline polygons.
    private func highlightBound(_ ranges: [Range<Int>]) -> Int {
        guard !ranges.isEmpty else { return 0 }
        let number = SVGSizeBound.anyNumber
        let perRect = SVGSizeBound.rect(SVGStyle.highlight) + 4 * number
            // One polygon per rect at most, four points per rect at most.
            + SVGSizeBound.polygon(SVGStyle.outline) + 4 * (2 * number + 2)
        let offsets = attachments.map(\.offset).sorted()
        let hasBidi = !visualGraphemes.isEmpty
        var rects = 0
        for range in ranges {
            let start = max(0, min(range.lowerBound, shaped.utf16Count))
            let end = max(0, min(range.upperBound, shaped.utf16Count))
            guard start < end else { continue }
            let first = lineIndex(containing: start)
            // Lines starting before `end` (the lines a range touches, but
            // attachment-only lines at `end`, counted with the attachments).
            let linesBefore = Self.partition(lines.count) { lines[$0].textRange.lowerBound < end }
            var count = max(0, linesBefore - first) + 1
            // Attachments belonging to the range: start < offset <= end (and offset 0 for a range at 0).
            let inRange = Self.partition(offsets.count) { offsets[$0] <= end } - Self.partition(offsets.count) { offsets[$0] <= start }
            let atZero = start == 0 ? Self.partition(offsets.count) { offsets[$0] <= 0 } : 0
            count += 2 * (inRange + atZero)
            if hasBidi {
                count += shaped.graphemeIndex(containing: end - 1) + 1 - shaped.graphemeIndex(containing: start)
            }
            rects += count
        }
        return rects * perRect
    }

    /// The number of leading indices in `0..<count` for which `isBefore`
    /// holds (`isBefore` true then false along the indices).
    private static func partition(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if isBefore(mid) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// The styles the renderer draws with (shared by the size bound).
enum SVGStyle {
    static let lineBox = "fill:none;stroke:#ccc;stroke-width:0.5"
    static let baseline = "stroke:#9cf;stroke-width:0.5"
    static let highlight = "fill:#ffe680;fill-opacity:0.6"
    static let outline = "fill:none;stroke:#c60;stroke-width:1;stroke-dasharray:4 3"
    static let attachment = "fill:#def;stroke:#369;stroke-width:1;stroke-dasharray:2 2"
    static let attachmentName = "font-family:sans-serif;font-size:7px;fill:#369"
    static let sentenceMark = "stroke:#c00;stroke-width:0.75"
    static let caret = "fill:#06c"
}

/// Upper bounds of what ``SVGWriter`` writes, for ``TextLayout/estimatedSVGSize(_:)``.
enum SVGSizeBound {
    /// The longest number ``SVGWriter/number(_:)`` writes: a sign, 16
    /// digits (it writes magnitudes up to 10^15) and at most three decimals
    /// (or Double's 17 significant digits and a point).
    static let anyNumber = 21

    /// The longest a number of magnitude at most `magnitude` is written:
    /// a sign, its whole digits, a point and three decimals (one more
    /// digit for rounding up, as 999.9996 to 1000). Within 12 whole digits
    /// the three decimals are exact, so nothing longer can appear.
    static func numberBytes(upTo magnitude: Double) -> Int {
        guard magnitude.isFinite, magnitude < 1e11 else { return anyNumber }
        var digits = 1
        var bound = 10.0
        while magnitude >= bound {
            digits += 1
            bound *= 10
        }
        return min(anyNumber, 1 + (digits + 1) + 1 + 3)
    }

    /// A UTF-16 unit's share of its character's escaped UTF-8: `&`, `<`,
    /// `>`, `"`, `'` become entities (at most 6 bytes), C0 controls are
    /// dropped, surrogates are half of a 4-byte sequence.
    static func escapedBytes(_ unit: UInt16) -> Int {
        switch unit {
        case 0x26, 0x3C, 0x3E, 0x22, 0x27: return 6
        case 0..<0x20: return 0
        case 0x20..<0x80: return 1
        case 0x80..<0x800: return 2
        case 0xD800...0xDFFF: return 2
        default: return 3
        }
    }

    /// The fixed bytes of each element (its numbers written as `0`, one
    /// byte each, taken off): measured from the writer, so that they follow
    /// any change to it.
    static func rect(_ style: String) -> Int {
        measure(numbers: 4) { $0.rect(Rect(x: 0, y: 0, width: 0, height: 0), style: style) }
    }

    static func line(_ style: String) -> Int {
        measure(numbers: 4) { $0.line(from: Point(x: 0, y: 0), to: Point(x: 0, y: 0), style: style) }
    }

    static func polygon(_ style: String) -> Int {
        measure(numbers: 0) { $0.polygon([], style: style) }
    }

    /// A glyph's `<use>` element without its id.
    static let use = measure(numbers: 2) { $0.use("", at: Point(x: 0, y: 0)) }

    /// A `<text>` element without its string.
    static func text(_ style: String) -> Int {
        measure(numbers: 2) { $0.text("", at: Point(x: 0, y: 0), style: style) }
    }

    private static func measure(numbers: Int, _ write: (inout SVGWriter) -> Void) -> Int {
        var writer = SVGWriter(width: 0, height: 0)
        write(&writer)
        return writer.output.utf8.count - numbers
    }
}
