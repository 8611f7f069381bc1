// SelectionTests.swift: SELECT, SELECTION, CLEAR, COPY, MOVE, against a live daemon.

import Testing
@testable import LecternClient

@Suite struct SelectionTests {
    @Test func collectCopyAndMoveSentences() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("reading", text: "First sentence. Second sentence. Third one here. Fourth and last.", language: "en")
        try await lectern.view("reading", ViewOptions(width: 240, size: 17, font: "DejaVu Sans"))

        guard case .added(let first, 1) = try await lectern.select("reading", at: Point(x: 10, y: 10)) else {
            Issue.record("expected the first sentence added")
            return
        }
        #expect(first.sentence.text == "First sentence.")
        guard case .added(let second, 2) = try await lectern.select("reading", at: Point(x: 150, y: 10)) else {
            Issue.record("expected the second sentence added")
            return
        }
        #expect(second.rects.count == 2)
        #expect(try await lectern.selection(of: "reading").map(\.sentence.number) == [0, 1])

        guard case .removed(_, 1) = try await lectern.select("reading", at: Point(x: 10, y: 10)) else {
            Issue.record("expected the first sentence removed")
            return
        }
        #expect(try await lectern.select("reading", at: Point(x: 10, y: 500)) == .miss(distance: 440.63))
        try await lectern.select("reading", at: Point(x: 10, y: 10))

        let copy = try await lectern.copy("reading", to: "notes")
        #expect(copy.sentences == 2)
        #expect(copy.target == "notes")
        // Revisions are the store's, store-wide: PUT reading took 1.
        #expect(copy.revision == 2)
        #expect(try await lectern.get("notes").text == "First sentence. Second sentence.")
        #expect(try await lectern.selection(of: "reading").isEmpty)

        try await lectern.select("reading", at: Point(x: 10, y: 30))
        let move = try await lectern.move("reading", to: "notes")
        #expect(move.sentences == 1)
        #expect(move.revision == 3)
        #expect(move.sourceRevision == 4)
        #expect(try await lectern.get("reading").text == "First sentence. Third one here. Fourth and last.")

        try await lectern.select("reading", at: Point(x: 10, y: 10))
        #expect(try await lectern.clear("reading") == 1)
        #expect(try await lectern.clear("reading") == 0)
    }

    @Test func selectionWithoutAViewHasNoGeometry() async throws {
        let daemon = try LiveDaemon()
        let viewer = try await daemon.connect()
        try await viewer.put("doc", text: "One here. Two there.", language: "en")
        try await viewer.view("doc", ViewOptions(width: 300))
        try await viewer.select("doc", at: Point(x: 5, y: 5))
        let selection = try await viewer.selection(of: "doc")
        #expect(selection.count == 1)
        #expect(!selection[0].rects.isEmpty)
        // Another connection has its own, empty selection.
        let other = try await daemon.connect()
        #expect(try await other.selection(of: "doc").isEmpty)
    }
}
