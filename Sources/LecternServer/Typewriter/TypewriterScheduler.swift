// TypewriterScheduler.swift: every typewriter stream on one timer, on absolute time.

import CUV
import LecternProtocol
import LecternUV
import LecternLayout
import LecternText

/// Drives all TYPE streams from one libuv timer.
///
/// Streams wait in a min-heap keyed by their next tick's deadline; the timer
/// is armed for the earliest one. Deadlines are absolute — a stream's start
/// time plus the sum of its delays — so a tick that fires late does not make
/// the later ones late, and thousands of streams cost one timer, not one
/// each (repeating per-stream libuv timers re-arm from the loop's cached
/// time and drift).
///
/// Pausing, seeking, changing speed or restarting a stream bumps its
/// generation; heap entries of an older generation, or of a stream no
/// longer in ``Server/readers`` (the one record of running streams), are
/// skipped when they come up (lazy deletion).
///
/// Bounded work: one timer callback sends at most
/// ``maximumTicksPerCallback`` ticks, most overdue first; if more are due
/// the timer fires again 1 ms later, so the loop serves its connections in
/// between. A stream that has fallen more than ``skipLag`` behind (the
/// daemon was overloaded or stopped) does not replay what it missed: it
/// steps to where it should be now and sends one tick that says how many
/// graphemes it skipped (`skipped=`). Its deadlines stay the exact sum of
/// its delays, so it goes on in step with its clock.
///
/// Loop thread only.
final class TypewriterScheduler {
    unowned let server: Server
    private let timer: UnsafeMutablePointer<uv_timer_t>
    /// Stream ids and generations, not references: entries move around the
    /// heap constantly, and plain integers move without reference counting.
    private var heap = DeadlineHeap<(stream: Int, generation: Int)>()
    private var nextStreamID = 1
    /// Deadline the timer is armed for, if any.
    private var armedDeadline: Double?
    /// Ticks sent since start, for STATS.
    private(set) var ticksSent = 0
    /// Ticks that skipped ahead because their stream had fallen behind, for STATS.
    private(set) var ticksSkipped = 0

    /// The most ticks one timer callback sends; the rest are due in the next.
    static let maximumTicksPerCallback = 128
    /// The most heap entries one callback looks at, stale ones (of paused,
    /// stopped or restarted streams) included.
    static let maximumEntriesPerCallback = 16 * maximumTicksPerCallback
    /// How late (ms) a stream's tick may be before the stream skips ahead
    /// instead of sending each tick it missed.
    static let skipLag = 100.0
    /// The most graphemes one callback steps through to find where skipping
    /// streams with pauses should be (without pauses it is arithmetic); a
    /// skip that runs out starts its clock again from where it got to.
    static let maximumSkipStepsPerCallback = 4096

    /// The most streams one connection may run at once.
    static let maximumStreamsPerConnection = 100

    init(server: Server) {
        self.server = server
        timer = LoopHandle.allocate(uv_timer_t.self)
        uv_timer_init(server.loop, timer)
        LoopHandle.bind(timer, to: self)
    }

    func close() { LoopHandle.close(timer) }

    /// Milliseconds on the loop's monotonic clock, to sub-millisecond precision.
    var now: Double { Double(uv_hrtime()) / 1_000_000 }

    // MARK: Streams

    func start(
        connection: Connection, document: Document, interval: Double, sentencePause: Double,
        commaPause: Double, follow: Bool, from position: Int
    ) -> TypewriterStream {
        let stream = TypewriterStream(
            id: nextStreamID, connection: connection, document: document, interval: interval,
            sentencePause: sentencePause, commaPause: commaPause, follow: follow, position: position)
        nextStreamID += 1
        server.readers.add(stream)
        restartClock(stream)
        return stream
    }

    /// Ends a stream without an event.
    func stop(_ stream: TypewriterStream) {
        stream.generation += 1
        server.readers.remove(stream)
    }

    func pause(_ stream: TypewriterStream) {
        guard !stream.isPaused else { return }
        stream.isPaused = true
        stream.generation += 1
    }

    func resume(_ stream: TypewriterStream) {
        guard stream.isPaused else { return }
        stream.isPaused = false
        restartClock(stream)
    }

    /// Moves the reveal to `position` graphemes and ticks there at once.
    func seek(_ stream: TypewriterStream, to position: Int) {
        stream.position = position
        stream.lastSentence = -1
        sendTick(stream)
        if !stream.isPaused { restartClock(stream) }
    }

    func setInterval(_ stream: TypewriterStream, _ interval: Double) {
        stream.interval = interval
        if !stream.isPaused { restartClock(stream) }
    }

    /// The document's text was replaced: its streams start over on the new text.
    func documentDidChange(_ document: Document) {
        for stream in server.readers.streams(of: document) {
            stream.position = 0
            stream.lastSentence = -1
            let unit = stream.connection.session.unit
            stream.connection.send(event: EventLine(document: document.id, text: "RESTART \(document.id) stream=\(stream.id) total=\(document.text.indexMap.length(in: unit)) graphemes=\(stream.total)"))
            if !stream.isPaused { restartClock(stream) }
        }
    }

    /// The document was deleted: its streams end where they stand.
    func documentWasDeleted(_ document: Document) {
        for stream in server.readers.streams(of: document) { finish(stream) }
    }

    /// The next tick of `stream` is one interval from now.
    private func restartClock(_ stream: TypewriterStream) {
        stream.generation += 1
        stream.origin = now
        stream.elapsed = stream.interval
        enqueue(stream)
    }

    private func enqueue(_ stream: TypewriterStream) {
        heap.push((stream.id, stream.generation), at: stream.nextDeadline)
        arm()
    }

    // MARK: Timer

    private func arm() {
        guard let earliest = heap.earliestDeadline else { return }
        if let armed = armedDeadline, armed <= earliest { return }
        // Refresh the loop's clock first: the timer counts from it, and a
        // stale clock would fire early. Never 0 ms from a timer callback
        // (libuv 1.44 busy-loops on that).
        uv_update_time(server.loop)
        let delay = max(1, (earliest - Self.earlyTolerance - now).rounded(.up))
        armedDeadline = earliest
        uv_timer_start(timer, { handle in
            LoopHandle.owner(of: handle, as: TypewriterScheduler.self)?.fire()
        }, UInt64(delay), 0)
    }

    /// libuv's timers count whole milliseconds, so a tick would be up to a
    /// millisecond late on average; ticks due within half a millisecond are
    /// sent now instead, which centres the error on zero.
    static let earlyTolerance = 0.5

    private func fire() {
        armedDeadline = nil
        let current = now + Self.earlyTolerance
        var ticksLeft = Self.maximumTicksPerCallback
        var entriesLeft = Self.maximumEntriesPerCallback
        var skipStepsLeft = Self.maximumSkipStepsPerCallback
        while ticksLeft > 0, entriesLeft > 0, let entry = heap.popDue(now: current) {
            entriesLeft -= 1
            guard let stream = server.readers.stream(entry.value.stream), entry.value.generation == stream.generation else { continue }
            ticksLeft -= 1
            if current - entry.deadline > Self.skipLag {
                skip(stream, to: current, steps: &skipStepsLeft)
            } else {
                advance(stream)
            }
        }
        // Ticks still due: the earliest deadline is past, so this arms the
        // timer for 1 ms (never 0 from a timer callback).
        arm()
    }

    /// Reveals one more grapheme of `stream` and schedules the next.
    private func advance(_ stream: TypewriterStream) {
        guard stream.position < stream.total else {
            finish(stream)
            return
        }
        stream.position += 1
        let end = stream.revealedEnd
        stream.elapsed += stream.delay(afterRevealingTo: end)
        sendTick(stream)
        afterTick(stream)
    }

    /// Moves a stream that fell behind to the position it should be at by
    /// `time` — every grapheme whose tick was due by then — and sends one
    /// tick for it, with `skipped=` the graphemes revealed without a tick
    /// of their own. The deadlines stay the sum of the delays; when
    /// `steps` (the callback's allowance for streams with pauses) runs out
    /// first, the clock starts again from where the stream got to.
    private func skip(_ stream: TypewriterStream, to time: Double, steps: inout Int) {
        let total = stream.total
        guard stream.position < total else {
            finish(stream)
            return
        }
        let start = stream.position
        if stream.sentencePause == 0 && stream.commaPause == 0 {
            // Every delay is the interval: the due ticks are counted, not walked.
            let due = Int(((time - stream.nextDeadline) / stream.interval).rounded(.down)) + 1
            let count = min(max(1, due), total - start)
            stream.position += count
            stream.elapsed += Double(count) * stream.interval
        } else {
            var walked = 0
            repeat {
                stream.position += 1
                stream.elapsed += stream.delay(afterRevealingTo: stream.revealedEnd)
                walked += 1
            } while stream.position < total && stream.nextDeadline <= time && walked < max(1, steps)
            steps -= walked
            if stream.nextDeadline <= time {
                // Out of steps while still behind: go on from here, on time.
                stream.origin = time
                stream.elapsed = stream.delay(afterRevealingTo: stream.revealedEnd)
            }
        }
        let skipped = stream.position - start - 1
        if skipped > 0 { ticksSkipped += 1 }
        sendTick(stream, skipped: skipped)
        afterTick(stream)
    }

    /// After a tick: the stream ends at the end of the text, else waits for its next deadline.
    private func afterTick(_ stream: TypewriterStream) {
        if stream.position >= stream.total {
            finish(stream)
        } else {
            enqueue(stream)
        }
    }

    private func finish(_ stream: TypewriterStream) {
        let document = stream.document
        let unit = stream.connection.session.unit
        stream.connection.send(event: EventLine(document: document.id, text: "DONE \(document.id) stream=\(stream.id) end=\(document.wireOffset(stream.revealedEnd, unit: unit)) graphemes=\(stream.position)"))
        stop(stream)
    }

    /// `skipped`: graphemes this tick reveals beyond the one it is for (a
    /// stream that fell behind, see ``skip(_:to:steps:)``), sent as `skipped=`.
    private func sendTick(_ stream: TypewriterStream, skipped: Int = 0) {
        let document = stream.document
        let connection = stream.connection
        let unit = connection.session.unit
        let end = stream.revealedEnd
        let sentence = document.sentence(containing: max(0, end - 1))?.number ?? 0
        // Built as bytes: a daemon with thousands of streams sends a tick
        // for each of them every few dozen milliseconds.
        var line: [UInt8] = []
        line.reserveCapacity(128)
        line.append(contentsOf: "TICK ".utf8)
        line.append(contentsOf: document.id.utf8)
        line.append(contentsOf: " stream=".utf8)
        line.write(decimal: stream.id)
        line.append(contentsOf: " end=".utf8)
        line.write(decimal: document.wireOffset(end, unit: unit))
        line.append(contentsOf: " graphemes=".utf8)
        line.write(decimal: stream.position)
        line.append(contentsOf: " total=".utf8)
        line.write(decimal: document.text.indexMap.length(in: unit))
        line.append(contentsOf: " sentence=".utf8)
        line.write(decimal: sentence)
        if skipped > 0 {
            line.append(contentsOf: " skipped=".utf8)
            line.write(decimal: skipped)
        }
        let layout = self.layout(for: stream)
        if let layout {
            line.append(contentsOf: " caret=".utf8)
            line.append(contentsOf: Wire.rect(layout.caretRect(at: end)).utf8)
        }
        connection.send(event: EventLine(document: document.id, line: line), coalescingKey: stream.tickCoalescingKey)
        ticksSent += 1
        if stream.follow && sentence != stream.lastSentence && end > 0 {
            let range = document.sentences[sentence].content
            var event = "SENTENCE \(document.id) stream=\(stream.id) sentence=\(sentence) range=\(document.wireRange(range, unit: unit))"
            if let layout { event += " " + Document.geometryFields(range, layout: layout) }
            // Coalesced like ticks, under a key of its own: a reader that
            // is behind gets the sentence typing is in now, not every one.
            connection.send(event: EventLine(document: document.id, text: event), coalescingKey: stream.sentenceCoalescingKey)
        }
        stream.lastSentence = sentence
    }

    /// The layout of the stream's connection's view of its document, if it
    /// has one and it is ready: the one the view remembers (see ``View``),
    /// or else the document's, which the view then remembers.
    ///
    /// Never lays out a large document on the loop thread: a view with no
    /// layout yet (larger than ``LayoutService/backgroundThreshold``, not in
    /// the view's or the document's cache) is laid out on the thread pool,
    /// and until it is ready this is nil, so ticks go without `caret=` and
    /// `! SENTENCE` without geometry (PROTOCOL.md, TYPE). Meanwhile each
    /// tick looks again, which costs a few lookups.
    private func layout(for stream: TypewriterStream) -> TextLayout? {
        let document = stream.document
        guard let view = stream.connection.session.viewWithCache(of: document) else { return nil }
        let layouts = server.layouts
        if let layout = layouts.layoutOnLoop(document, view: view) { return layout.layout }
        if !layouts.isLayingOut(document, spec: view.spec) {
            layouts.requestLayout(document, spec: view.spec, on: server.loop) { layout in
                view.rememberIfMissing(layout, for: document)
            }
        }
        return nil
    }
}
