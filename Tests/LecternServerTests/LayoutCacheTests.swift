// LayoutCacheTests.swift: more views of a document than its layout cache holds,
// laid out off the loop thread, with watch events in order and in each view's geometry.

import Foundation
import Testing
@testable import LecternServer
import LecternLayout
import LecternProtocol
import LecternText

@Suite(.serialized) struct LayoutCacheTests {

    /// One STATS figure.
    private func statistic(_ name: String, from client: LineClient) throws -> Int {
        let lines = try client.request("STATS")
        let line = try #require(lines.first { $0.hasPrefix("* \(name) ") })
        return try #require(Int(line.split(separator: " ")[2]))
    }

    /// Text of `sentences` sentences, each about 55 bytes, in one paragraph.
    private func text(sentences: Int) -> [UInt8] {
        Array((0..<sentences).map { "Sentence number \($0) is here to fill the page nicely. " }.joined().utf8)
    }

    private func put(_ id: String, _ bytes: [UInt8], on client: LineClient) throws {
        client.send(bytes: Array("PUT \(id) {\(bytes.count)}\n".utf8) + bytes + [0x0A])
        let reply = try client.readReply()
        #expect(reply.last?.hasPrefix("OK PUT id=\(id) ") == true, "\(reply)")
    }

    /// Lines up to the next one that starts with `prefix` (events of other kinds are skipped).
    private func next(_ prefix: String, from client: LineClient) throws -> String {
        while let line = try client.readLine() {
            if line.hasPrefix(prefix) { return line }
        }
        throw LineClient.Failure(description: "stream ended before \(prefix)")
    }

    /// The `rects …` data line of a RECTS reply, as `rects=…`.
    private func rects(of sentence: String, in id: String, on client: LineClient) throws -> String? {
        let reply = try client.request("RECTS \(id) \(sentence)").filter { !$0.hasPrefix("!") }
        return reply.first { $0.hasPrefix("* rects ") }.map { "rects=" + $0.dropFirst("* rects ".count) }
    }

    // MARK: Live daemon

    @Test func fortyWatchersOfAMegabyteDocumentGetEveryTapInOrderInTheirOwnGeometry() throws {
        let daemon = try Daemon()
        let setup = try LineClient(port: daemon.port, timeoutSeconds: 300)
        let big = text(sentences: 19_000)  // 1,033,890 bytes
        try put("big", big, on: setup)
        // Shaped once here; the watchers' views then only break lines.
        #expect(try setup.request("VIEW big width=300").last?.hasPrefix("OK VIEW id=big ") == true)

        // 40 watchers, 40 widths: with the tapper's, more views than the 32 cached.
        let widths = (0..<40).map { 200 + 7 * $0 }
        let watchers = try widths.map { _ in try LineClient(port: daemon.port, timeoutSeconds: 300) }
        for (watcher, width) in zip(watchers, widths) { watcher.sendLine("VIEW big width=\(width)\nWATCH big") }
        for watcher in watchers {
            #expect(try watcher.readReply().last?.hasPrefix("OK VIEW id=big ") == true)
            #expect(try watcher.readReply().last?.hasPrefix("OK WATCH id=big ") == true)
        }
        let tapper = try LineClient(port: daemon.port, timeoutSeconds: 300)
        #expect(try tapper.request("VIEW big width=300").last?.hasPrefix("OK VIEW") == true)
        let pinger = try daemon.connect()
        let computedBefore = try statistic("layouts_computed", from: setup)
        let backgroundBefore = try statistic("layouts_background", from: setup)

        var tapped: [String] = []
        var pongs = 0
        func tap(_ round: Int) throws {
            let reply = try tapper.request("TAP big 20 \(10 + 40 * round)")
            let final = try #require(reply.last)
            #expect(final.hasPrefix("OK TAP hit "), "\(reply)")
            tapped.append(try #require(fields(final)["sentence"]))
            // Answered while the evicted views are laid out, and after.
            for _ in 0..<5 {
                if try pinger.request("PING") == ["OK PONG"] { pongs += 1 }
            }
        }
        func events(_ count: Int, on watcher: LineClient) throws -> [String] {
            try (0..<count).map { _ in try next("! TAP big ", from: watcher) }
        }

        // Round one: the views that fell out of the document's cache are
        // laid out again, off the loop thread, and their events wait for it.
        try tap(0)
        var received = try watchers.map { try events(1, on: $0) }
        let computedAfterFirst = try statistic("layouts_computed", from: setup)
        let backgroundAfterFirst = try statistic("layouts_background", from: setup)
        #expect(computedAfterFirst > computedBefore)
        #expect(backgroundAfterFirst - backgroundBefore == computedAfterFirst - computedBefore)

        // Later rounds: every watcher's view keeps its layout; nothing is laid out again.
        let rounds = 6
        for round in 1..<rounds { try tap(round) }
        for (index, watcher) in watchers.enumerated() { received[index] += try events(rounds - 1, on: watcher) }
        #expect(try statistic("layouts_computed", from: setup) == computedAfterFirst)
        #expect(pongs == 5 * rounds)
        #expect(Set(tapped).count == rounds)

        for (watcher, events) in zip(watchers, received) {
            #expect(events.map { fields($0)["sentence"] ?? "?" } == tapped)
            // The geometry is the watcher's own: what RECTS gives it.
            for event in events {
                let sentence = try #require(fields(event)["sentence"])
                let own = try rects(of: sentence, in: "big", on: watcher)
                #expect(own != nil && own == fields(event)["rects"].map { "rects=" + $0 })
            }
        }
        #expect(try statistic("layouts_computed", from: setup) == computedAfterFirst)
    }

    /// 32 VIEWs of distinct widths from one connection: every layout made
    /// before them leaves the document's cache (views keep their own).
    private func evictCachedLayouts(of id: String, on client: LineClient) throws {
        for width in 600..<(600 + LayoutCache.maximumCachedLayouts) {
            #expect(try client.request("VIEW \(id) width=\(width)").last?.hasPrefix("OK VIEW") == true)
        }
    }

    @Test func anEventWaitingForItsLayoutIsFollowedByTheChangeInOrder() throws {
        let daemon = try Daemon()
        let client = { try LineClient(port: daemon.port, timeoutSeconds: 60) }
        let setup = try client()
        try put("mid", text(sentences: 800), on: setup)  // 44 KB: laid out off the loop thread
        let watcher = try client()
        #expect(try watcher.request("VIEW mid width=250").last?.hasPrefix("OK VIEW") == true)
        // The same view elsewhere says what the watcher's rects must be.
        let twin = try client()
        #expect(try twin.request("VIEW mid width=250").last?.hasPrefix("OK VIEW") == true)
        let expected = try #require(try rects(of: "0", in: "mid", on: twin))
        let tapper = try client()
        #expect(try tapper.request("VIEW mid width=400").last?.hasPrefix("OK VIEW") == true)
        #expect(try tapper.request("TAP mid 5 5").last?.hasPrefix("OK TAP hit sentence=0 ") == true)
        #expect(try watcher.request("WATCH mid").last?.hasPrefix("OK WATCH") == true)
        try evictCachedLayouts(of: "mid", on: setup)
        let backgroundBefore = try statistic("layouts_background", from: setup)

        // One write: the TAP's event for the watcher waits for its layout,
        // and the PUT's CHANGED, made in the same loop turn, waits behind it.
        tapper.send("TAP mid 5 5\nPUT mid \"Short now. Two sentences.\"\n")
        #expect(try tapper.readReply().last?.hasPrefix("OK TAP hit sentence=0 ") == true)
        #expect(try tapper.readReply().last?.hasPrefix("OK PUT id=mid revision=2 ") == true)

        let tap = try #require(try watcher.readLine())
        #expect(tap.hasPrefix("! TAP mid by="))
        #expect(fields(tap)["revision"] == "1" && fields(tap)["sentence"] == "0")
        // Geometry of revision 1, the one the event names, in the watcher's view.
        #expect(fields(tap)["rects"].map { "rects=" + $0 } == expected)
        let changed = try #require(try watcher.readLine())
        #expect(changed.hasPrefix("! CHANGED mid by=") && fields(changed)["revision"] == "2")
        #expect(try statistic("layouts_background", from: setup) > backgroundBefore)
    }

    @Test func aTypewriterOnALargeDocumentTicksWhileItsViewIsLaidOut() throws {
        let daemon = try Daemon()
        let setup = try LineClient(port: daemon.port, timeoutSeconds: 60)
        try put("mid", text(sentences: 800), on: setup)
        let reader = try LineClient(port: daemon.port, timeoutSeconds: 60)
        #expect(try reader.request("VIEW mid width=250").last?.hasPrefix("OK VIEW") == true)
        try evictCachedLayouts(of: "mid", on: setup)
        let backgroundBefore = try statistic("layouts_background", from: setup)

        // The reader's layout is in no cache: the stream must not lay it
        // out on the loop; ticks come at once, caret= once it is ready.
        let reply = try reader.request("TYPE mid interval=1")
        let typed = try #require(reply.last)
        let stream = try #require(fields(typed)["stream"])
        var ticks = 0
        var caretTick: [String: String]?
        while caretTick == nil {
            let tick = fields(try next("! TICK mid stream=\(stream) ", from: reader))
            ticks += 1
            if tick["caret"] != nil { caretTick = tick }
        }
        #expect(ticks >= 1)
        #expect(try statistic("layouts_background", from: setup) > backgroundBefore)
        #expect(try reader.request("STOP \(stream)").filter { !$0.hasPrefix("!") }.last?.hasPrefix("OK STOP") == true)
        // The caret is the view's own: what CARET gives at that offset.
        let end = try #require(caretTick?["end"])
        let caret = try reader.request("CARET mid \(end)").filter { !$0.hasPrefix("!") }.last ?? ""
        #expect(fields(caret)["rect"] == caretTick?["caret"])
    }

    // MARK: The cache itself

    private func layout(
        _ document: Document, width: Double, insets: Double = 0, attachments: [InlineAttachment] = [], service: LayoutService
    ) -> TextLayout {
        let spec = LayoutSpec(width: width, fontSize: 17, insets: EdgeInsets(all: insets))
        return LayoutService.compute(
            text: document.text.utf16, shaped: document.cachedShaping(for: spec.font), spec: spec,
            attachments: attachments, shaper: service.shaper)
    }

    private func document() throws -> Document {
        let content = try DocumentContent(utf8: Array("One short sentence. Another one here.".utf8), language: nil, mode: .reader)
        return Document(id: "d", content: content, revision: 1)
    }

    /// The `rects …` line a layout gives a sentence, made afresh.
    private func ownRects(_ sentence: Sentence, in layout: TextLayout) -> String {
        "rects \(Wire.rects(layout.selectionRects(for: sentence.content)))"
    }

    @Test func theLeastRecentlyUsedLayoutLeavesTakingOnlyItsHighlights() throws {
        let service = try LayoutService()
        let document = try document()
        let sentence = document.sentences[0]
        let layouts = (0..<LayoutCache.maximumCachedLayouts).map {
            document.store(layout(document, width: 100 + Double($0), service: service), computedAt: document.stamp)
        }
        let first = document.highlight(sentence, layout: layouts[0], unit: .utf16)
        let second = document.highlight(sentence, layout: layouts[1], unit: .utf16)
        #expect(document.cachedHighlightCount == 2)
        // layouts[0] was used last (its highlight); layouts[2] is the least recently used.
        _ = document.cachedLayout(for: layouts[1].layout.spec)
        _ = document.highlight(sentence, layout: layouts[0], unit: .utf16)
        document.store(layout(document, width: 99, service: service), computedAt: document.stamp)
        #expect(document.cachedLayoutCount == LayoutCache.maximumCachedLayouts)
        #expect(document.cachedLayout(for: layouts[2].layout.spec) == nil)
        #expect(!layouts[2].isCached)
        #expect(document.cachedLayout(for: layouts[0].layout.spec) === layouts[0])
        #expect(document.cachedLayout(for: layouts[1].layout.spec) === layouts[1])
        // Both highlights are still memoised: the very same lines come back.
        #expect(document.cachedHighlightCount == 2)
        #expect(document.highlight(sentence, layout: layouts[0], unit: .utf16) === first)
        #expect(document.highlight(sentence, layout: layouts[1], unit: .utf16) === second)
    }

    @Test func aLayoutThatLeavesTheCacheTakesItsHighlightsWithIt() throws {
        let service = try LayoutService()
        let document = try document()
        let sentence = document.sentences[1]
        let kept = document.store(layout(document, width: 250, service: service), computedAt: document.stamp)
        let memoised = document.highlight(sentence, layout: kept, unit: .utf16)
        // Distinct specs push it out; a view that kept it still has it.
        for width in 0..<LayoutCache.maximumCachedLayouts {
            document.store(layout(document, width: 400 + Double(width), service: service), computedAt: document.stamp)
        }
        #expect(!kept.isCached && document.cachedHighlightCount == 0)
        // Highlighted again: back in the cache, formatted afresh, its own geometry.
        let again = document.highlight(sentence, layout: kept, unit: .utf16)
        #expect(again !== memoised && kept.isCached && document.cachedHighlightCount == 1)
        #expect(again.lines[1] == ownRects(sentence, in: kept.layout))
        // A change of the text: nothing of the old stamp is memoised in.
        document.replace(with: try DocumentContent(utf8: Array("Changed. Text.".utf8), language: nil, mode: .reader), revision: 2)
        #expect(!document.layouts.isCurrent(kept) && !kept.isCached && document.cachedLayoutCount == 0)
        _ = document.highlight(document.sentences[0], layout: kept, unit: .utf16)
        #expect(document.cachedHighlightCount == 0 && document.cachedLayoutCount == 0)
    }

    /// Two layouts of one spec that differ (one laid out with an attachment
    /// the other has not, as ATTACH's precomputed layout is): the one that
    /// replaces the other in the cache, and the replaced one that a view
    /// still holds, each always get their own rects.
    @Test func aReplacedLayoutOfTheSameSpecNeverServesTheOthersRects() throws {
        let service = try LayoutService()
        let document = try document()
        let sentence = document.sentences[0]
        let box = [InlineAttachment(name: "box", offset: 0, width: 120, height: 20, baselineOffset: 0)]
        let plain = document.store(layout(document, width: 300, service: service), computedAt: document.stamp)
        let boxed = layout(document, width: 300, attachments: box, service: service)
        #expect(plain.layout.spec == boxed.spec)
        #expect(ownRects(sentence, in: plain.layout) != ownRects(sentence, in: boxed))
        for unit in [OffsetUnit.utf16, .grapheme] {
            _ = document.highlight(sentence, layout: plain, unit: unit)
        }
        // Same spec: replaces the plain layout, which leaves with its tables.
        let replacing = document.store(boxed, computedAt: document.stamp)
        #expect(!plain.isCached && replacing.isCached && document.cachedHighlightCount == 0)
        for _ in 0..<3 {
            for unit in [OffsetUnit.utf16, .grapheme] {
                #expect(document.highlight(sentence, layout: replacing, unit: unit).lines[1] == ownRects(sentence, in: boxed))
                // The replaced one (a view kept it) comes back with its own, and pushes the other out.
                #expect(document.highlight(sentence, layout: plain, unit: unit).lines[1] == ownRects(sentence, in: plain.layout))
            }
        }
        #expect(document.cachedLayoutCount == 1)
    }

    @Test func aReplacedLayoutsHighlightsAreNeverServedForAnother() throws {
        let service = try LayoutService()
        let document = try document()
        let sentence = document.sentences[0]
        for _ in 0..<50 {
            var old: CachedLayout? = document.store(layout(document, width: 300, service: service), computedAt: document.stamp)
            _ = old.map { document.highlight(sentence, layout: $0, unit: .utf16) }
            // Same spec again: replaces (and releases) the old layout.
            document.store(layout(document, width: 300, service: service), computedAt: document.stamp)
            old = nil
            // A layout made now may get the old one's address; its highlight
            // must be its own (inset by 20 points), never the old one's.
            let other = document.store(layout(document, width: 300, insets: 20, service: service), computedAt: document.stamp)
            let lines = document.highlight(sentence, layout: other, unit: .utf16).lines
            #expect(lines[1] == ownRects(sentence, in: other.layout))
            #expect(lines[1].hasPrefix("rects 20,20,"))
        }
    }

    @Test func waitingWatchEventsKeepTheirOrderAndStayBounded() {
        let request = { (width: Double) in
            LayoutService.LayoutRequest(stamp: 1, spec: LayoutSpec(width: width, fontSize: 17))
        }
        let event = { (text: String) in EventLine(document: "a", text: text) }
        var queue = WatchEventQueue()
        #expect(queue.add(.awaiting(line: event("TAP a sentence=0"), range: 0..<3, layout: request(100))) == ([], true))
        #expect(queue.add(.ready(event("CHANGED a"))) == ([], false))
        #expect(queue.add(.awaiting(line: event("TAP a sentence=1"), range: 3..<6, layout: request(200))) == ([], true))
        #expect(queue.add(.awaiting(line: event("TAP a sentence=2"), range: 6..<9, layout: request(100))) == ([], false))
        // The second layout first: nothing may pass the first event.
        queue.resolve(request(200)) { "rects=\($0.lowerBound)" }
        #expect(queue.takeReady().isEmpty)
        queue.resolve(request(100)) { "rects=\($0.lowerBound)" }
        #expect(queue.takeReady().map { String(decoding: $0.line, as: UTF8.self) }
            == ["TAP a sentence=0 rects=0", "CHANGED a", "TAP a sentence=1 rects=3", "TAP a sentence=2 rects=6"])
        #expect(queue.isEmpty)

        // One past the limit: all go at once, in order, the waiting ones without geometry.
        _ = queue.add(.awaiting(line: event("TAP a sentence=0"), range: 0..<3, layout: request(100)))
        for number in 1..<WatchEventQueue.maximumWaiting { _ = queue.add(.ready(event("SELECT \(number)"))) }
        let (sendNow, _) = queue.add(.ready(event("CLEAR a")))
        #expect(sendNow.count == WatchEventQueue.maximumWaiting + 1)
        #expect(sendNow.first.map { String(decoding: $0.line, as: UTF8.self) } == "TAP a sentence=0")
        #expect(sendNow.last.map { String(decoding: $0.line, as: UTF8.self) } == "CLEAR a")
        #expect(queue.isEmpty && queue.awaited.isEmpty)
    }
}
