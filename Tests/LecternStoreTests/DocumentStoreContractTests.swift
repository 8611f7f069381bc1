// DocumentStoreContractTests.swift: the behaviour every DocumentStore shares,
// run against both implementations.

import Foundation
import Testing
import LecternStore

/// The implementations under test.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case memory, sqlite
    var testDescription: String { rawValue }

    /// Runs `body` with a fresh store of this kind.
    func withStore(_ body: (any DocumentStore) throws -> Void) throws {
        switch self {
        case .memory:
            try body(MemoryDocumentStore())
        case .sqlite:
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try body(SQLiteDocumentStore(directory: directory.appending("data")))
        }
    }
}

/// A small document with two attachments.
func sampleDocument(id: String = "alice", text: String = "Down the rabbit hole. Curious!")
    -> DocumentRecord
{
    DocumentRecord(
        id: id, text: Array(text.utf8), language: "en", segmentation: "sentence",
        attachments: [
            AttachmentRecord(name: "rabbit", utf16Offset: 4, width: 12.5, height: 10, baseline: 8.25),
            AttachmentRecord(name: "clock", utf16Offset: 0, width: 3, height: 3, baseline: 0),
        ])
}

@Suite struct DocumentStoreContractTests {
    @Test(arguments: StoreKind.allCases)
    func putAllCommitsEveryDocumentOrNone(kind: StoreKind) throws {
        try kind.withStore { store in
            let before = try store.put(sampleDocument(id: "source", text: "One. Two."))
            let stored = try store.put(all: [
                sampleDocument(id: "target", text: "Two."), sampleDocument(id: "source", text: "One."),
            ])
            #expect(stored.map(\.record.id) == ["target", "source"])
            #expect(stored[0].revision > before.revision && stored[1].revision > stored[0].revision)
            #expect(try store.load(id: "source") == stored[1])
            #expect(try store.load(id: "target") == stored[0])

            // One invalid record: nothing at all is written.
            var invalid = sampleDocument(id: "bad")
            invalid.attachments.append(invalid.attachments[0])
            #expect(throws: DocumentStoreError.self) {
                try store.put(all: [sampleDocument(id: "other"), invalid])
            }
            #expect(try store.load(id: "other") == nil)
            #expect(try store.loadAll().count == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func putThenLoadReturnsTheSameBytesAndAttachments(kind: StoreKind) throws {
        try kind.withStore { store in
            // Not UTF-8, a NUL, and a character outside the BMP: bytes round-trip exactly.
            var record = sampleDocument()
            record.text = [0x00, 0xFF, 0xFE] + Array("é😀\r\n".utf8)
            let stored = try store.put(record)
            #expect(stored.record == record)
            #expect(try store.load(id: "alice") == stored)
            #expect(try store.loadAll() == [stored])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func emptyTextAndEmptyStringsStayEmptyNotMissing(kind: StoreKind) throws {
        try kind.withStore { store in
            let record = DocumentRecord(id: "empty", text: [], language: "", segmentation: "")
            _ = try store.put(record)
            #expect(try store.load(id: "empty")?.record == record)
            let noLanguage = DocumentRecord(id: "plain", text: [65], segmentation: "sentence")
            _ = try store.put(noLanguage)
            #expect(try store.load(id: "plain")?.record.language == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func putReplacesTheDocumentAndAllItsAttachments(kind: StoreKind) throws {
        try kind.withStore { store in
            _ = try store.put(sampleDocument())
            var replacement = sampleDocument(text: "A new text.")
            replacement.attachments = [
                AttachmentRecord(name: "cat", utf16Offset: 2, width: 1, height: 2, baseline: 1)
            ]
            replacement.language = nil
            let stored = try store.put(replacement)
            #expect(try store.load(id: "alice") == stored)
            #expect(try store.loadAll().count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func revisionsIncreaseAcrossTheWholeStoreAndAreNeverReused(kind: StoreKind) throws {
        try kind.withStore { store in
            let first = try store.put(sampleDocument(id: "a"))
            let second = try store.put(sampleDocument(id: "b"))
            #expect(try store.delete(id: "b"))
            let third = try store.put(sampleDocument(id: "b"))
            let fourth = try store.setAttachment(
                AttachmentRecord(name: "x", utf16Offset: 1, width: 1, height: 1, baseline: 1),
                documentID: "a")
            #expect(first.revision < second.revision)
            #expect(second.revision < third.revision)
            #expect(third.revision < fourth.revision)
            #expect(fourth.updatedAtMilliseconds >= first.updatedAtMilliseconds)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func loadAllOrdersByUTF8BytesAndKeepsCanonicallyEquivalentIdsApart(kind: StoreKind) throws {
        try kind.withStore { store in
            let composed = "caf\u{E9}"  // é as one scalar: bytes 63 61 66 C3 A9
            let decomposed = "cafe\u{301}"  // e + combining acute: 63 61 66 65 CC 81
            for id in ["b", composed, "a", decomposed, "B", "a b"] {
                _ = try store.put(sampleDocument(id: id, text: id))
            }
            let ids = try store.loadAll().map { Array($0.id.utf8) }
            #expect(ids == ids.sorted { $0.lexicographicallyPrecedes($1) })
            #expect(ids.count == 6)
            #expect(try store.load(id: decomposed)?.record.text == Array(decomposed.utf8))
            #expect(try store.load(id: composed)?.record.text == Array(composed.utf8))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deleteRemovesTheDocumentAndReportsWhetherItExisted(kind: StoreKind) throws {
        try kind.withStore { store in
            _ = try store.put(sampleDocument())
            #expect(try store.delete(id: "alice"))
            #expect(try !store.delete(id: "alice"))
            #expect(try store.load(id: "alice") == nil)
            #expect(try store.loadAll().isEmpty)
            // A new document with the same id starts without the old attachments.
            var bare = sampleDocument()
            bare.attachments = []
            _ = try store.put(bare)
            #expect(try store.load(id: "alice")?.record.attachments == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func setAttachmentReplacesInPlaceOrAppends(kind: StoreKind) throws {
        try kind.withStore { store in
            _ = try store.put(sampleDocument())
            let moved = AttachmentRecord(name: "rabbit", utf16Offset: 9, width: 1, height: 2, baseline: 3)
            let added = AttachmentRecord(name: "hat", utf16Offset: 7, width: 4, height: 5, baseline: 6)
            _ = try store.setAttachment(moved, documentID: "alice")
            let stored = try store.setAttachment(added, documentID: "alice")
            #expect(stored.record.attachments.map(\.name) == ["rabbit", "clock", "hat"])
            #expect(stored.record.attachments[0] == moved)
            #expect(try store.load(id: "alice") == stored)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func removeAttachmentKeepsTheOthersInOrder(kind: StoreKind) throws {
        try kind.withStore { store in
            _ = try store.put(sampleDocument())
            let stored = try store.removeAttachment(named: "rabbit", documentID: "alice")
            #expect(stored.record.attachments.map(\.name) == ["clock"])
            let appended = try store.setAttachment(
                AttachmentRecord(name: "rabbit", utf16Offset: 1, width: 1, height: 1, baseline: 1),
                documentID: "alice")
            #expect(appended.record.attachments.map(\.name) == ["clock", "rabbit"])
            #expect(try store.loadAll() == [appended])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func attachmentChangesToMissingThingsAreNotFound(kind: StoreKind) throws {
        try kind.withStore { store in
            let attachment = AttachmentRecord(name: "x", utf16Offset: 0, width: 1, height: 1, baseline: 0)
            let noDocument = #expect(throws: DocumentStoreError.self) {
                try store.setAttachment(attachment, documentID: "nobody")
            }
            #expect(noDocument?.code == .notFound)
            _ = try store.put(sampleDocument())
            let noAttachment = #expect(throws: DocumentStoreError.self) {
                try store.removeAttachment(named: "nothing", documentID: "alice")
            }
            #expect(noAttachment?.code == .notFound)
            #expect(noAttachment?.message.contains("nothing") == true)
            // The failed change took no revision and changed nothing.
            #expect(try store.load(id: "alice")?.record == sampleDocument())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func invalidDocumentsAreRefusedBeforeAnythingIsWritten(kind: StoreKind) throws {
        try kind.withStore { store in
            var duplicateNames = sampleDocument()
            duplicateNames.attachments.append(duplicateNames.attachments[0])
            var notFinite = sampleDocument()
            notFinite.attachments[1].width = .nan
            var negativeOffset = sampleDocument()
            negativeOffset.attachments[0].utf16Offset = -1
            var emptyName = sampleDocument()
            emptyName.attachments[0].name = ""
            let emptyID = sampleDocument(id: "")
            for record in [duplicateNames, notFinite, negativeOffset, emptyName, emptyID] {
                let refusal = #expect(throws: DocumentStoreError.self) { try store.put(record) }
                #expect(refusal?.code == .invalidArgument)
            }
            let remaining = try store.loadAll()
            #expect(remaining.isEmpty)
        }
    }
}
