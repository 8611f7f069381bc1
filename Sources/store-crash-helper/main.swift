// store-crash-helper: writes documents in a loop until killed, for the kill -9 durability test.
//
// Usage: store-crash-helper <data-directory> <count>
//
// For every put it writes one line `intent <JSON of the DocumentRecord>`
// before calling put, and `ack <id>` after put has returned (that is, after
// the store committed). Each line goes out in one write(2), unbuffered, so
// the test that kills this process with SIGKILL knows exactly which writes
// were acknowledged and what each one contained. Ids repeat (97 of them), so
// most puts replace an earlier version with a different number of
// attachments: a torn write would show as a mix of two versions.

import Foundation
import LecternRandom
import LecternStore

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: store-crash-helper <data-directory> <count>\n".utf8))
    exit(2)
}

/// Writes one whole line to standard output in a single write.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The `index`-th document: a pseudo-random size and content (mixing ASCII,
/// multi-byte UTF-8 and bytes that are not UTF-8 at all) and 0 to 4 attachments.
func document(_ index: Int) -> DocumentRecord {
    var random = SplitMix64(seed: UInt64(truncatingIfNeeded: index))
    func next() -> UInt64 { random.next() }
    let sentence = Array("Sentence \(index) — naïve café, 日本語. ".utf8)
    var text: [UInt8] = []
    let length = 200 + Int(next() % 3000)
    while text.count < length {
        text += next() % 7 == 0 ? [0xFF, 0xC0, UInt8(truncatingIfNeeded: next())] : sentence
    }
    let attachments = (0..<(index % 5)).map { slot in
        AttachmentRecord(
            name: "figure-\(slot)", utf16Offset: slot * 11 + index % 7,
            width: Double(index) + 0.25, height: Double(slot) * 1.5, baseline: -0.125 * Double(slot))
    }
    return DocumentRecord(
        id: "doc-\(index % 97)", text: text, language: index % 3 == 0 ? nil : "en",
        segmentation: "sentence", attachments: attachments)
}

do {
    let store = try SQLiteDocumentStore(directory: arguments[1])
    let encoder = JSONEncoder()
    for index in 0..<count {
        let record = document(index)
        emit("intent " + String(decoding: try encoder.encode(record), as: UTF8.self))
        _ = try store.put(record)
        emit("ack \(record.id)")
    }
} catch {
    FileHandle.standardError.write(Data("store-crash-helper: \(error)\n".utf8))
    exit(1)
}
