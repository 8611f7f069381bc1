// EventTests.swift: document events beside replies, against a live daemon.

import Testing
@testable import LecternClient

@Suite struct EventTests {
    /// Transcript 07's story through the SDK: B watches what A does, in B's own view.
    @Test func watchersSeeOthersInTheirOwnView() async throws {
        let daemon = try LiveDaemon()
        let alice = try await daemon.connect()
        let bob = try await daemon.connect()
        let aliceNumber = try await alice.hello(name: "alice").connection
        try await alice.put("shared", text: "We read this together. Each in our own view. Taps travel.", language: "en")
        try await alice.view("shared", ViewOptions(width: 300, font: "DejaVu Sans"))
        try await bob.view("shared", ViewOptions(width: 150, size: 20, font: "DejaVu Sans"))
        let events = bob.events(for: "shared")
        #expect(try await bob.watch("shared") == 1)

        _ = try await alice.tap("shared", at: Point(x: 20, y: 10))
        _ = try await alice.select("shared", at: Point(x: 20, y: 10))
        try await alice.clear("shared")
        try await alice.attach("shared", name: "dot", at: .end, width: 8, height: 8)
        try await alice.put("shared", text: "Edited while watched. New text.")
        try await alice.delete("shared")

        var seen: [DocumentEvent] = []
        for await event in events {
            seen.append(event)
            if event.kind == .deleted { break }
        }
        #expect(seen.allSatisfy { $0.document == "shared" && $0.by == aliceNumber })
        #expect(seen.count == 6)
        let bobsRects = [Rect(x: 0, y: 0, width: 125.16, height: 23.28), Rect(x: 0, y: 23.28, width: 90.64, height: 23.28)]
        if case .tap(0, 0..<22, let rects, let outline) = seen.first?.kind {
            #expect(rects == bobsRects)
            #expect(outline.polygons.count == 1)
        } else {
            Issue.record("expected a TAP event first, got \(seen)")
        }
        if seen.count == 6 {
            if case .select(true, 0, 0..<22, let rects, _) = seen[1].kind { #expect(rects == bobsRects) } else {
                Issue.record("expected SELECT added, got \(seen[1])")
            }
            #expect(seen[2].kind == .clear)
            #expect(seen[3].kind == .changed(revision: 2, sentences: 3))
            #expect(seen[4].kind == .changed(revision: 3, sentences: 2))
        }
    }

    /// Events arrive while the watcher has many requests of its own in
    /// flight: every reply still reaches its caller, every event the stream.
    @Test func eventsInterleavedWithPipelinedReplies() async throws {
        let daemon = try LiveDaemon()
        let writer = try await daemon.connect()
        let reader = try await daemon.connect()
        try await writer.put("live", text: "Start.")
        let events = reader.events()
        try await reader.watch("live")
        let rounds = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 1...rounds { try await writer.put("live", text: "Round \(round). Again.") }
            }
            group.addTask {
                for round in 1...rounds {
                    let echo = try await reader.ping("reader \(round)")
                    #expect(echo == "reader \(round)")
                    let sentences = try await reader.sentences(of: "live")
                    #expect(sentences.total >= 1)
                }
            }
            try await group.waitForAll()
        }
        var revisions: [Int] = []
        for await event in events {
            guard case .changed(let revision, _) = event.kind else { continue }
            revisions.append(revision)
            if revision == rounds + 1 { break }
        }
        #expect(revisions == Array(2...(rounds + 1)))
    }

    @Test func unwatchStopsEventsAndDeletedEndsTheWatch() async throws {
        let daemon = try LiveDaemon()
        let a = try await daemon.connect()
        let b = try await daemon.connect()
        try await a.put("doc", text: "One.")
        try await b.watch("doc")
        try await b.unwatch("doc")
        let events = b.events()
        try await a.put("doc", text: "Two.")
        try await b.watch("doc")
        try await a.put("doc", text: "Three.")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .changed(revision: 3, sentences: 1))
    }

    /// `events(for:)` gets one document's events; `events()` gets them all.
    @Test func eventSequencesFilterByDocument() async throws {
        let daemon = try LiveDaemon()
        let writer = try await daemon.connect()
        let reader = try await daemon.connect()
        try await writer.put("a", text: "A.")
        try await writer.put("b", text: "B.")
        try await reader.watch("a")
        try await reader.watch("b")
        let onlyB = reader.events(for: "b")
        let all = reader.events()
        try await writer.put("a", text: "A again.")
        try await writer.put("b", text: "B again.")
        var bIterator = onlyB.makeAsyncIterator()
        #expect(await bIterator.next()?.document == "b")
        var allIterator = all.makeAsyncIterator()
        #expect(await allIterator.next()?.document == "a")
        #expect(await allIterator.next()?.document == "b")
    }
}
