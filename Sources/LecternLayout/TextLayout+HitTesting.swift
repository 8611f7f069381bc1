// TextLayout+HitTesting.swift: point → grapheme, affinity, inside/distance, attachment.

extension TextLayout {
    /// What is at (x, y) in view coordinates.
    ///
    /// Points above the first line hit the first line, points below the last
    /// line hit the last; points left or right of a line hit its start or end
    /// (in visual terms), with `isInside == false` and the distance to the
    /// nearest glyph box. A point on an inline attachment reports it in
    /// `attachment` (and the attachment's offset as `offset`).
    ///
    /// - Complexity: O(log lines + log graphemes on the line + attachments on the line).
    public func hitTest(x: Double, y: Double) -> HitResult {
        let point = Point(x: x, y: y)
        let lineIndex = lineIndex(atY: y)
        let line = lines[lineIndex]
        for a in line.attachments {
            let frame = attachmentFrames[a]
            guard x >= frame.minX, x < frame.maxX else { continue }
            let offset = attachments[a].offset
            let g = attachmentGraphemes[a]
            let rect = Self.box(line, frame.minX, frame.maxX)
            let leftHalf = x < frame.midX
            return HitResult(
                offset: offset, grapheme: g < shaped.graphemeCount ? shaped.graphemeRange(g) : offset..<offset,
                side: leftHalf != line.isRightToLeft ? .leading : .trailing,
                isInside: rect.contains(point), distance: rect.distance(to: point), line: lineIndex, attachment: a)
        }
        guard !line.graphemes.isEmpty else {
            let edge = endEdge(of: line)
            let rect = Self.box(line, edge, edge)
            let offset = line.textRange.lowerBound
            return HitResult(
                offset: offset, grapheme: offset..<offset, side: .leading, isInside: false,
                distance: rect.distance(to: point), line: lineIndex, attachment: nil)
        }
        let (g, position) = graphemeAt(x: x, line: line, lineIndex: lineIndex)
        let isRTL = isRightToLeft(grapheme: g, on: line)
        let range = shaped.graphemeRange(g)
        let isVisible = g < line.contentEnd
        // The grapheme reported for hanging spaces and separators: the last visible one.
        let reported = isVisible || line.contentEnd == line.graphemes.lowerBound
            ? range : shaped.graphemeRange(line.contentEnd - 1)
        let side: HitResult.Side
        let offset: Int
        if shaped.flags[g].contains(.paragraphSeparator) || shaped.flags[g].contains(.lineSeparator) {
            side = .leading
            offset = range.lowerBound
        } else {
            switch position {
            case .before: side = isRTL ? .trailing : .leading
            case .after: side = isRTL ? .leading : .trailing
            case .within(let leftHalf): side = leftHalf != isRTL ? .leading : .trailing
            }
            offset = side == .leading ? range.lowerBound : range.upperBound
        }
        let glyphBox = isVisible
            ? Self.box(line, graphemeX[g], graphemeX[g] + graphemeWidth(g))
            : Self.box(line, line.x, line.x + line.width)
        let inside = isVisible && glyphBox.contains(point)
        return HitResult(
            offset: offset, grapheme: reported, side: side, isInside: inside,
            distance: inside ? 0 : glyphBox.distance(to: point), line: lineIndex, attachment: nil)
    }

    /// Where x falls relative to the grapheme found.
    enum HorizontalPosition {
        case before
        case within(leftHalf: Bool)
        case after
    }

    /// A horizontal span of a line, the line box's height.
    static func box(_ line: LayoutLine, _ minX: Double, _ maxX: Double) -> Rect {
        Rect(x: minX, y: line.top, width: maxX - minX, height: line.height)
    }

    /// The grapheme whose box contains x, else the nearest at the line's
    /// left or right end. Binary search over left edges, in logical order for
    /// left-to-right lines and over the visual order for BiDi lines.
    func graphemeAt(x: Double, line: LayoutLine, lineIndex: Int) -> (Int, HorizontalPosition) {
        let found: (first: Int, candidate: Int?)
        if !visualGraphemes.isEmpty, let order = visualGraphemes[lineIndex] {
            found = graphemeX.withUnsafeBufferPointer { positions in
                order.withUnsafeBufferPointer { order in
                    let index = Self.lastIndex(in: order.count) { positions[order[$0]] <= x }
                    return (order.first ?? line.graphemes.lowerBound, index.map { order[$0] })
                }
            }
        } else {
            let base = line.graphemes.lowerBound
            // Where x would fall if the line's graphemes were equally wide.
            let share = line.width > 0 ? (x - line.x) / line.width : 0
            let guess = share > 0 && share < 1 ? Int(share * Double(line.contentEnd - base)) : 0
            found = graphemeX.withUnsafeBufferPointer { positions in
                let slice = UnsafeBufferPointer(rebasing: positions[line.graphemes])
                return (base, Self.lastIndex(atOrBefore: x, in: slice, near: guess).map { base + $0 })
            }
        }
        guard let g = found.candidate else { return (found.first, .before) }
        let right = graphemeX[g] + graphemeWidth(g)
        if x >= right { return (g, .after) }
        return (g, .within(leftHalf: x < (graphemeX[g] + right) / 2))
    }

    /// The last index in 0..<count for which `isAtOrBefore` holds, given that
    /// it holds for a prefix; nil when it holds for none.
    /// - Complexity: O(log count).
    @inline(__always)
    static func lastIndex(in count: Int, where isAtOrBefore: (Int) -> Bool) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if isAtOrBefore(mid) { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }
}
