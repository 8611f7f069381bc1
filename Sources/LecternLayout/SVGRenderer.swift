// SVGRenderer.swift: a view as SVG: text, sentence marks, highlight rects and outlines, attachments, caret.

extension TextLayout {
    /// Renders the view as a standalone SVG document, for people to look at
    /// and for examples/. Each visible grapheme is a `<text>` element at its
    /// exact x and the line's baseline, in the family that shaped it, so a
    /// browser draws the same lines Lectern measured (given the same fonts).
    ///
    /// Spaces, separators and control characters are not drawn.
    /// - Complexity: O(graphemes + rects of the options' ranges).
    public func renderSVG(_ options: SVGOptions = SVGOptions()) -> String {
        var svg = SVGWriter(width: spec.width, height: height)
        svg.open()
        if options.showLineBoxes {
            for line in lines {
                svg.rect(Rect(x: spec.insets.left, y: line.top, width: spec.lineWidth, height: line.height),
                         style: "fill:none;stroke:#ccc;stroke-width:0.5")
                svg.line(from: Point(x: spec.insets.left, y: line.baseline),
                         to: Point(x: spec.insets.left + spec.lineWidth, y: line.baseline),
                         style: "stroke:#9cf;stroke-width:0.5")
            }
        }
        for range in options.highlights {
            for rect in selectionRects(for: range) { svg.rect(rect, style: "fill:#ffe680;fill-opacity:0.6") }
            for polygon in outline(for: range) {
                svg.polygon(polygon, style: "fill:none;stroke:#c60;stroke-width:1;stroke-dasharray:4 3")
            }
        }
        drawText(into: &svg)
        for (index, frame) in attachmentFrames.enumerated() {
            svg.rect(frame, style: "fill:#def;stroke:#369;stroke-width:1;stroke-dasharray:2 2")
            svg.text(attachments[index].name, at: Point(x: frame.minX + 2, y: frame.maxY - 3),
                     style: "font-family:sans-serif;font-size:7px;fill:#369")
        }
        for sentence in options.sentences where sentence.lowerBound > 0 {
            let caret = caretRect(at: sentence.lowerBound)
            svg.line(from: Point(x: caret.midX, y: caret.minY), to: Point(x: caret.midX, y: caret.maxY),
                     style: "stroke:#c00;stroke-width:0.75")
        }
        if let offset = options.caret { svg.rect(caretRect(at: offset), style: "fill:#06c") }
        svg.close()
        return svg.output
    }

    private func drawText(into svg: inout SVGWriter) {
        var runIndex = 0
        let size = SVGWriter.number(fontSize)
        for line in lines {
            for g in line.graphemes.lowerBound..<line.contentEnd {
                while runIndex + 1 < shaped.runs.count, shaped.runs[runIndex].graphemes.upperBound <= g { runIndex += 1 }
                let units = shaped.text[shaped.graphemeRange(g)]
                guard let first = units.first, first > 0x20, !shaped.flags[g].contains(.hangingSpace) else { continue }
                let family = shaped.fonts[shaped.runs[runIndex].fontIndex].family
                svg.text(String(decoding: units, as: UTF16.self), at: Point(x: graphemeX[g], y: line.baseline),
                         style: "font-family:'\(family)';font-size:\(size)px")
            }
        }
    }
}
