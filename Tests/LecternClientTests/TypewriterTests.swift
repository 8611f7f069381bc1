// TypewriterTests.swift: TYPE streams and their controls, against a live daemon.

import Testing
@testable import LecternClient

@Suite struct TypewriterTests {
    @Test func ticksRevealGraphemesUntilDone() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        let text = "Hi 👍🏽. 한국."
        try await lectern.put("doc", text: text, language: "en")
        try await lectern.view("doc", ViewOptions(width: 300))
        let reveal = try await lectern.type("doc", TypewriterOptions(pace: .interval(milliseconds: 2), follow: true))
        #expect(reveal.total == text.utf16.count)
        #expect(reveal.graphemes == text.count)
        #expect(reveal.interval == 2)
        var ends: [Int] = []
        var sentences: [Int] = []
        var done: (end: Int, graphemes: Int)?
        for try await event in reveal {
            switch event {
            case .tick(let tick):
                ends.append(tick.end)
                #expect(tick.caret != nil)
                // Never half a character: every end is a boundary of the text.
                #expect(text.index(atOffset: tick.end, in: .utf16) != nil)
            case .sentence(let number, _, let rects, _):
                sentences.append(number)
                #expect(!rects.isEmpty)
            case .done(let end, let graphemes):
                done = (end, graphemes)
            case .restart:
                Issue.record("no restart expected")
            }
        }
        #expect(ends == ends.sorted())
        #expect(ends.last == text.utf16.count)
        #expect(sentences == [0, 1])
        #expect(done?.end == text.utf16.count)
        #expect(done?.graphemes == text.count)
    }

    @Test func pauseResumeSeekSpeedAndStop() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("doc", text: String(repeating: "Slow text. ", count: 20))
        let reveal = try await lectern.type("doc", TypewriterOptions(pace: .interval(milliseconds: 1_000)))
        let paused = try await reveal.pause()
        #expect(paused.stream == reveal.id)
        #expect(try await reveal.resume().stream == reveal.id)
        #expect(try await reveal.seek(to: 11).end == 11)
        #expect(try await reveal.setPace(.interval(milliseconds: 500)) == 500)
        #expect(try await reveal.stop().stream == reveal.id)
        var events: [TypewriterEvent] = []
        for try await event in reveal { events.append(event) }
        #expect(!events.contains { if case .done = $0 { return true } else { return false } })
        await #expect(throws: LecternError.self) { try await lectern.pause(stream: reveal.id) }
        do {
            try await lectern.pause(stream: reveal.id)
        } catch let error as LecternError {
            #expect(error.code == .noStream)
        }
    }

    /// Cancelling the task that consumes a stream sends STOP: the stream is
    /// gone from the daemon (PAUSE says NOSTREAM). The stream is too slow to
    /// end by itself, so only the STOP can have ended it.
    @Test func cancellingTheConsumerStopsTheStream() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("doc", text: "Endless text. Slower than any test.")
        let reveal = try await lectern.type("doc", TypewriterOptions(pace: .interval(milliseconds: 60_000)))
        try await reveal.seek(to: 3)
        let consumer = Task {
            for try await case .tick in reveal {}
        }
        try await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        _ = await consumer.result
        let deadline = ContinuousClock.now + .seconds(30)
        var stopped = false
        while !stopped && ContinuousClock.now < deadline {
            do {
                try await lectern.pause(stream: reveal.id)
                try await lectern.resume(stream: reveal.id)
                try await Task.sleep(for: .milliseconds(10))
            } catch let error as LecternError where error.code == .noStream {
                stopped = true
            }
        }
        #expect(stopped)
    }

    /// As in transcript 08: a slow stream, a PUT, a RESTART on the new
    /// text, then a faster pace to the end.
    @Test func aPutRestartsTheStream() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("doc", text: "First text, rather long for a while.")
        let reveal = try await lectern.type("doc", TypewriterOptions(pace: .interval(milliseconds: 60_000)))
        try await lectern.put("doc", text: "New.")
        #expect(try await reveal.setPace(.interval(milliseconds: 1)) == 1)
        var restarted: (total: Int, graphemes: Int)?
        var lastEnd: Int?
        for try await event in reveal {
            switch event {
            case .restart(let total, let graphemes): restarted = (total, graphemes)
            case .tick(let tick): lastEnd = tick.end
            case .sentence, .done: break
            }
        }
        #expect(restarted?.total == 4)
        #expect(restarted?.graphemes == 4)
        #expect(lastEnd == 4)
    }
}
