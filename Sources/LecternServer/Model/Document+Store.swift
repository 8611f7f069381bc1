// Document+Store.swift: documents as the store keeps them, and back.

import LecternStore
import LecternText

extension DocumentAttachment {
    /// The attachment a stored record describes. A record written before
    /// ATTACH checked its numbers may hold any double (a baseline of 1e20
    /// once made every RENDER trap, after every restart): its values are
    /// brought into the ranges ATTACH accepts now, and the change is logged.
    init(_ record: AttachmentRecord) {
        func valid(_ value: Double, _ range: ClosedRange<Double>) -> Double {
            value.isFinite ? min(max(value, range.lowerBound), range.upperBound) : 0
        }
        let width = valid(record.width, Wire.lengthRange)
        let height = valid(record.height, Wire.lengthRange)
        let baseline = valid(record.baseline, Wire.offsetRange)
        if width != record.width || height != record.height || baseline != record.baseline {
            Log.warning("store_attachment_out_of_range", [
                "name": record.name, "width": record.width, "height": record.height, "baseline": record.baseline,
                "message": "a stored attachment's size or baseline is outside what ATTACH accepts; using the nearest allowed values",
            ])
        }
        self.init(
            name: record.name, offset: record.utf16Offset, atEnd: record.followsTextEnd,
            width: width, height: height, baseline: baseline)
    }

    var record: AttachmentRecord {
        AttachmentRecord(
            name: name, utf16Offset: offset, width: width, height: height, baseline: baseline,
            followsTextEnd: atEnd)
    }
}

extension DocumentContent {
    /// The store's record of this content with these attachments.
    func record(id: String, attachments: [DocumentAttachment]) -> DocumentRecord {
        DocumentRecord(
            id: id, text: utf8, language: requestedLanguage?.code,
            segmentation: mode.rawValue, attachments: attachments.map(\.record))
    }

    /// `attachments` moved onto this text: offsets clamped to it and rounded
    /// down to a grapheme boundary (those glued to the end follow it).
    func adjusted(_ attachments: [DocumentAttachment]) -> [DocumentAttachment] {
        attachments.map { attachment in
            var moved = attachment
            moved.offset = attachment.atEnd ? text.utf16.count : text.graphemeBoundary(atOrBefore: attachment.offset)
            return moved
        }
    }

    /// Rebuilds stored content (start-up); nil if the stored bytes are not
    /// valid UTF-8 (they always are: they were validated before storing).
    init?(stored record: DocumentRecord) {
        let mode = SentenceMode(rawValue: record.segmentation) ?? .reader
        guard let content = try? DocumentContent(
            utf8: record.text, language: record.language.map(Language.init), mode: mode)
        else { return nil }
        self = content
    }
}

extension DocumentText {
    /// The last grapheme boundary at or before a UTF-16 offset, clamped to the text.
    func graphemeBoundary(atOrBefore offset: Int) -> Int {
        var candidate = min(max(0, offset), utf16.count)
        while candidate > 0, (try? indexMap.offset(ofUTF16: candidate, in: .grapheme)) == nil {
            candidate -= 1
        }
        return candidate
    }
}
