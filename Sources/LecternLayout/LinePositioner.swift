// LinePositioner.swift: line metrics (CSS 2.2 § 10.8 half-leading) and x positions, in visual order for BiDi lines.

/// Turns broken lines into positioned `LayoutLine`s, top to bottom.
struct LinePositioner {
    let shaped: ShapedText
    let spec: LayoutSpec
    let fontSize: Double
    let attachments: [InlineAttachment]
    let attachmentGraphemes: [Int]

    private(set) var lines: [LayoutLine] = []
    private(set) var graphemeX: [Double]
    private(set) var attachmentFrames: [Rect]
    private(set) var visualGraphemes: [Int: [Int]] = [:]
    private var top: Double
    private var runIndex = 0
    /// Ascent and descent of each of the text's fonts at this size.
    private let fontAscents: [Double]
    private let fontDescents: [Double]

    init(
        shaped: ShapedText, spec: LayoutSpec, fontSize: Double, attachments: [InlineAttachment],
        attachmentGraphemes: [Int]
    ) {
        self.shaped = shaped
        self.spec = spec
        self.fontSize = fontSize
        self.attachments = attachments
        self.attachmentGraphemes = attachmentGraphemes
        graphemeX = [Double](repeating: 0, count: shaped.graphemeCount)
        attachmentFrames = [Rect](repeating: Rect(x: 0, y: 0, width: 0, height: 0), count: attachments.count)
        top = spec.insets.top
        fontAscents = shaped.fonts.map { $0.ascent * fontSize }
        fontDescents = shaped.fonts.map { $0.descent * fontSize }
    }

    mutating func place(_ broken: BrokenLine) {
        if let previous = lines.last, previous.endsParagraph, spec.paragraphSpacing.isFinite {
            top += max(0, spec.paragraphSpacing)
        }
        let (height, baseline) = verticalMetrics(of: broken)
        let paragraph = shaped.paragraphs[broken.paragraph]
        let left = spec.insets.left
        let x = paragraph.isRightToLeft ? left + spec.lineWidth - broken.contentWidth : left
        let start = Int(shaped.graphemeStarts[broken.graphemes.lowerBound])
        let end = Int(shaped.graphemeStarts[broken.graphemes.upperBound])
        if needsReordering(broken, paragraph: paragraph) {
            placeVisually(broken, paragraph: paragraph, contentX: x, baseline: baseline)
        } else {
            placeLogically(broken, x: x, baseline: baseline)
        }
        lines.append(LayoutLine(
            textRange: start..<end, graphemes: broken.graphemes, contentEnd: broken.contentEnd,
            attachments: broken.attachments, paragraph: broken.paragraph, top: top, height: height,
            baseline: baseline, x: x, width: broken.contentWidth, endsParagraph: broken.endsParagraph,
            isRightToLeft: paragraph.isRightToLeft))
        top += height
    }

    /// Line box height and baseline: the largest ascent and descent of the
    /// line's fonts (the primary font always counts, so empty lines have a
    /// height) and attachments; the leading is split half above, half below.
    private mutating func verticalMetrics(of broken: BrokenLine) -> (height: Double, baseline: Double) {
        var ascent = fontAscents[0]
        var descent = fontDescents[0]
        let runs = shaped.runs
        while runIndex < runs.count, runs[runIndex].graphemes.upperBound <= broken.graphemes.lowerBound {
            runIndex += 1
        }
        var r = runIndex
        while r < runs.count, runs[r].graphemes.lowerBound < broken.graphemes.upperBound {
            ascent = max(ascent, fontAscents[runs[r].fontIndex])
            descent = max(descent, fontDescents[runs[r].fontIndex])
            r += 1
        }
        for a in broken.attachments {
            ascent = max(ascent, attachments[a].ascent)
            descent = max(descent, attachments[a].descent)
        }
        let natural = ascent + descent
        let normal = natural + shaped.fonts[0].lineGap * fontSize
        let height: Double
        switch spec.lineHeight {
        case .fontDefault:
            height = normal
        case .multiple(let factor):
            height = factor.isFinite && factor > 0 ? normal * factor : normal
        case .absolute(let points):
            height = points.isFinite && points > 0 ? points : normal
        }
        return (height, top + (height - natural) / 2 + ascent)
    }

    private func needsReordering(_ broken: BrokenLine, paragraph: ShapedParagraph) -> Bool {
        guard !shaped.levels.isEmpty else { return false }
        return paragraph.isRightToLeft || broken.graphemes.contains { shaped.levels[$0] != 0 }
    }

    /// Left-to-right lines: items in logical order from the line's left edge.
    private mutating func placeLogically(_ broken: BrokenLine, x: Double, baseline: Double) {
        var cursor = x
        var a = broken.attachments.lowerBound
        let end = broken.attachments.upperBound
        var attachmentXs: [Double] = []
        let size = fontSize
        let attachmentGraphemes = self.attachmentGraphemes
        let attachments = self.attachments
        shaped.advances.withUnsafeBufferPointer { advances in
            graphemeX.withUnsafeMutableBufferPointer { positions in
                for g in broken.graphemes {
                    while a < end, attachmentGraphemes[a] <= g {
                        attachmentXs.append(cursor)
                        cursor += attachments[a].width
                        a += 1
                    }
                    positions[g] = cursor
                    cursor += Double(advances[g]) * size
                }
            }
        }
        while a < end {
            attachmentXs.append(cursor)
            cursor += attachments[a].width
            a += 1
        }
        for (i, attachmentX) in attachmentXs.enumerated() {
            _ = placeAttachment(broken.attachments.lowerBound + i, x: attachmentX, baseline: baseline)
        }
    }

    /// Lines with right-to-left content: UAX #9 L1–L2 on the line's items,
    /// then positions in visual order. Right-to-left paragraphs are right-aligned,
    /// their hanging spaces past the left edge.
    private mutating func placeVisually(
        _ broken: BrokenLine, paragraph: ShapedParagraph, contentX: Double, baseline: Double
    ) {
        var items: [Int] = []
        var levels: [UInt8] = []
        var isTrailing: [Bool] = []
        var a = broken.attachments.lowerBound
        let end = broken.attachments.upperBound
        func appendAttachments(before g: Int) {
            while a < end, attachmentGraphemes[a] <= g {
                items.append(-1 - a)
                levels.append(levels.last ?? paragraph.baseLevel)
                isTrailing.append(false)
                a += 1
            }
        }
        var trailingWidth = 0.0
        for g in broken.graphemes {
            appendAttachments(before: g)
            items.append(g)
            levels.append(shaped.levels[g])
            isTrailing.append(g >= broken.contentEnd)
            if g >= broken.contentEnd { trailingWidth += Double(shaped.advances[g]) * fontSize }
        }
        appendAttachments(before: Int.max)
        let order = BidiReordering.visualOrder(
            levels: &levels, isTrailing: isTrailing, paragraphLevel: paragraph.baseLevel)
        var cursor = paragraph.isRightToLeft ? contentX - trailingWidth : contentX
        var visual: [Int] = []
        visual.reserveCapacity(order.count)
        for index in order {
            let item = items[index]
            if item >= 0 {
                visual.append(item)
                graphemeX[item] = cursor
                cursor += Double(shaped.advances[item]) * fontSize
            } else {
                cursor = placeAttachment(-1 - item, x: cursor, baseline: baseline)
            }
        }
        visualGraphemes[lines.count] = visual
    }

    /// Places attachment `index` at `x` on the baseline; returns the x after it.
    private mutating func placeAttachment(_ index: Int, x: Double, baseline: Double) -> Double {
        let attachment = attachments[index]
        attachmentFrames[index] = Rect(
            x: x, y: baseline - attachment.ascent, width: attachment.width, height: attachment.height)
        return x + attachment.width
    }
}
