// Document+Wire.swift: a document's offsets, ranges and sentences as the
// connection's offset unit and the protocol's encodings write them.

import LecternLayout
import LecternProtocol
import LecternText

extension DocumentText {
    /// A UTF-16 offset in `unit`. Offsets Lectern produces are grapheme
    /// boundaries, which every unit can express; anything else is reported
    /// at the grapheme boundary before it.
    ///
    /// On the text's value, so that a reply built off the loop thread can
    /// write offsets too (see ``LargeReply``).
    func wireOffset(_ offset: Int, unit: OffsetUnit) -> Int {
        // The common unit needs no conversion (and no copy of the index map).
        if unit == .utf16, offset >= 0, offset <= indexMap.utf16Length { return offset }
        if let converted = try? indexMap.offset(ofUTF16: offset, in: unit) { return converted }
        let boundary = graphemeBoundary(atOrBefore: offset)
        return (try? indexMap.offset(ofUTF16: boundary, in: unit)) ?? 0
    }

    func wireRange(_ range: Range<Int>, unit: OffsetUnit) -> String {
        "\(wireOffset(range.lowerBound, unit: unit))..\(wireOffset(range.upperBound, unit: unit))"
    }

    /// `sentence N range=… content=… paragraph=… [lang=…] text="…"`: one
    /// sentence, with its paragraph's language when `language` is given
    /// (SENTENCES gives it; TAP, RECTS and highlights do not).
    func sentenceLine(_ sentence: Sentence, unit: OffsetUnit, language: Language? = nil) -> String {
        "sentence \(sentence.number) range=\(wireRange(sentence.range, unit: unit))"
            + " content=\(wireRange(sentence.content, unit: unit)) paragraph=\(sentence.paragraph)"
            + (language.map { " lang=\($0.tag)" } ?? "")
            + " text=\(ReplyEncoder.quote(text(in: sentence.content)))"
    }

    /// A sentence's three data lines with its highlight in `layout` (just
    /// the sentence line without one), made afresh: what
    /// ``Document/highlightLines(_:layout:unit:)`` memoises.
    /// - Complexity: O(log lines + the sentence's graphemes).
    func highlightLines(_ sentence: Sentence, layout: TextLayout?, unit: OffsetUnit) -> [String] {
        let line = sentenceLine(sentence, unit: unit)
        guard let layout else { return [line] }
        return [
            line,
            "rects \(Wire.rects(layout.selectionRects(for: sentence.content)))",
            "outline \(Wire.outline(layout.outline(for: sentence.content)))",
        ]
    }
}

extension Document {
    /// A UTF-16 offset in `unit` (see ``DocumentText/wireOffset(_:unit:)``).
    ///
    /// The common unit is answered from one stored number read in place:
    /// calling a method of ``text`` copies the whole value out of the class
    /// first (a dozen retains and releases, a tenth of a TAP).
    func wireOffset(_ offset: Int, unit: OffsetUnit) -> Int {
        if unit == .utf16, offset >= 0, offset <= text.indexMap.utf16Length { return offset }
        return text.wireOffset(offset, unit: unit)
    }

    func wireRange(_ range: Range<Int>, unit: OffsetUnit) -> String { text.wireRange(range, unit: unit) }

    /// A client's offset in `unit`, as UTF-16, which must be a grapheme
    /// boundary within the text (`ERR RANGE` otherwise).
    func utf16Offset(fromWire text: String, unit: OffsetUnit, name: String) throws -> Int {
        let value = try Wire.integer(text, name, in: Int.min...Int.max)
        let utf16: Int
        do {
            utf16 = try self.text.indexMap.utf16Offset(of: value, in: unit)
        } catch {
            switch error {
            case .outOfBounds(_, let unit, let length):
                throw ProtocolError(.range, "\(name) \(value) is outside the text: offsets run from 0 to \(length) (\(unit.rawValue))")
            case .notOnBoundary(_, let unit):
                throw ProtocolError(.range, "\(name) \(value) falls inside a character (\(unit.rawValue)); use its start or end")
            }
        }
        guard (try? self.text.indexMap.offset(ofUTF16: utf16, in: .grapheme)) != nil else {
            throw ProtocolError(.range, "\(name) \(value) falls inside a character (a grapheme cluster); use its start or end")
        }
        return utf16
    }

    /// The sentence with this number, or `ERR RANGE`.
    func sentence(number text: String) throws -> Sentence {
        let count = sentences.count
        let number = try Wire.integer(text, "sentence number")
        guard number < count else {
            throw ProtocolError(.range, "sentence \(number) does not exist; '\(id)' has \(count) sentence\(count == 1 ? "" : "s") (0 to \(count - 1))")
        }
        return sentences[number]
    }

    /// `sentence N range=… content=… paragraph=… text="…"`: one sentence.
    func sentenceLine(_ sentence: Sentence, unit: OffsetUnit) -> String { text.sentenceLine(sentence, unit: unit) }

    /// The data lines of a sentence and its highlight in `layout`: the
    /// sentence, its rects (one per line fragment) and its outline.
    ///
    /// Memoised per layout, sentence and unit until the document changes:
    /// readers tap the same sentences over and over, and formatting the
    /// geometry costs far more than looking it up.
    func highlightLines(_ sentence: Sentence, layout: CachedLayout?, unit: OffsetUnit) -> [String] {
        guard let layout else { return [sentenceLine(sentence, unit: unit)] }
        return highlight(sentence, layout: layout, unit: unit).lines
    }

    /// ``highlightLines(_:layout:unit:)`` with the lines also encoded as a
    /// reply's data lines, ready to copy into a connection's output.
    /// Memoised in `layout`'s own tables (see ``LayoutCache``): always
    /// `layout`'s geometry, whatever else the cache holds.
    func highlight(_ sentence: Sentence, layout: CachedLayout, unit: OffsetUnit) -> EncodedDataLines {
        if let lines = layouts.highlight(sentence.number, in: layout, unit: unit) { return lines }
        let lines = EncodedDataLines(text.highlightLines(sentence, layout: layout.layout, unit: unit))
        layouts.memoise(lines, sentence: sentence.number, of: sentences.count, in: layout, unit: unit)
        return lines
    }

    /// `rects=… outline=…` for event lines.
    static func geometryFields(_ range: Range<Int>, layout: TextLayout) -> String {
        let rects = layout.selectionRects(for: range)
        let outline = layout.outline(for: range)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 + rects.count * 28 + outline.reduce(0) { $0 + $1.count } * 14)
        bytes.append(contentsOf: "rects=".utf8)
        Wire.write(rects: rects, to: &bytes)
        bytes.append(contentsOf: " outline=".utf8)
        Wire.write(outline: outline, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
