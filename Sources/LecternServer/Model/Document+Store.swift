// Document+Store.swift: documents as the store keeps them, and back.

import LecternStore
import LecternText

extension AttachmentRecord {
    /// This stored record with its values in the ranges ATTACH accepts now.
    /// A record written before ATTACH checked its numbers may hold any
    /// double (a baseline of 1e20 once made every RENDER trap, after every
    /// restart): such values are brought into range, and the change is logged.
    var inAttachRanges: AttachmentRecord {
        func valid(_ value: Double, _ range: ClosedRange<Double>) -> Double {
            value.isFinite ? min(max(value, range.lowerBound), range.upperBound) : 0
        }
        var record = self
        record.width = valid(width, Wire.lengthRange)
        record.height = valid(height, Wire.lengthRange)
        record.baseline = valid(baseline, Wire.offsetRange)
        if record != self {
            Log.warning("store_attachment_out_of_range", [
                "name": name, "width": width, "height": height, "baseline": baseline,
                "message": "a stored attachment's size or baseline is outside what ATTACH accepts; using the nearest allowed values",
            ])
        }
        return record
    }
}

extension DocumentContent {
    /// The store's record of this content with these attachments.
    func record(id: String, attachments: [AttachmentRecord]) -> DocumentRecord {
        DocumentRecord(
            id: id, text: utf8, language: requestedLanguage?.tag,
            segmentation: mode.rawValue, attachments: attachments)
    }

    /// `attachments` moved onto this text: offsets clamped to it and rounded
    /// down to a grapheme boundary (those glued to the end follow it, to
    /// ``DocumentText/attachmentEnd``).
    func adjusted(_ attachments: [AttachmentRecord]) -> [AttachmentRecord] {
        let end = text.attachmentEnd
        return attachments.map { attachment in
            var moved = attachment
            moved.utf16Offset = attachment.followsTextEnd ? end : text.graphemeBoundary(atOrBefore: attachment.utf16Offset)
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
    /// Where an attachment glued to the end (`ATTACH … at=end`) sits: right
    /// after the last word, whatever white space or line ends follow it
    /// (``trimmedEnd``, on a grapheme boundary).
    var attachmentEnd: Int { graphemeBoundary(atOrBefore: trimmedEnd) }

    /// The last grapheme boundary at or before a UTF-16 offset, clamped to the text.
    func graphemeBoundary(atOrBefore offset: Int) -> Int {
        var candidate = min(max(0, offset), utf16.count)
        while candidate > 0, (try? indexMap.offset(ofUTF16: candidate, in: .grapheme)) == nil {
            candidate -= 1
        }
        return candidate
    }
}

extension StoredDocument {
    /// ``revision`` as the wire and ``Document/revision`` carry it.
    var wireRevision: Int { Int(revision) }
}
