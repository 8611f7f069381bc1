// WatchEventQueue.swift: a watcher's events held back, in order, behind one that waits for a layout.

import LecternProtocol

/// The watch events of one connection that cannot go out yet (kept in
/// its ``ReaderRegistry/Reader``).
///
/// An event with geometry (`! TAP`, `! SELECT`) for a view whose layout is
/// being computed on the thread pool waits here until the layout arrives;
/// every later watch event of the connection (`! CHANGED`, `! DELETED`,
/// `! CLEAR` too) waits behind it, so a watcher sees events in the order
/// they happened. Empty, as it nearly always is, it costs nothing: events
/// go straight to the connection.
///
/// At most ``maximumWaiting`` events wait; one more sends them all at once,
/// in order, those still waiting without their geometry fields, so a
/// watcher whose layout is slow costs bounded memory.
///
/// Loop thread only.
struct WatchEventQueue {
    enum Entry {
        /// An event line, ready to send.
        case ready(EventLine)
        /// An event line without its geometry, the UTF-16 range its
        /// `rects=… outline=…` are for, and the layout they wait for.
        case awaiting(line: EventLine, range: Range<Int>, layout: LayoutService.LayoutRequest)
    }

    /// The most events that wait per connection (PROTOCOL.md, "Limits").
    static let maximumWaiting = 1000

    private var entries: [Entry] = []
    /// The layouts entries wait for.
    private(set) var awaited: Set<LayoutService.LayoutRequest> = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// Adds an entry at the end, or, if ``maximumWaiting`` entries wait
    /// already, returns them all to be sent now (``takeAll()``) followed
    /// by the entry itself when it is ready (one that waits is queued).
    ///
    /// - Returns: events to send now, in order, and whether the entry is
    ///   the first to wait for its layout (someone must then ask for it).
    mutating func add(_ entry: Entry) -> (sendNow: [EventLine], isFirstToAwait: Bool) {
        var sendNow: [EventLine] = []
        if entries.count >= Self.maximumWaiting {
            sendNow = takeAll()
            if case .ready(let bytes) = entry {
                sendNow.append(bytes)
                return (sendNow, false)
            }
        }
        entries.append(entry)
        guard case .awaiting(_, _, let layout) = entry else { return (sendNow, false) }
        return (sendNow, awaited.insert(layout).inserted)
    }

    /// Completes the entries that wait for `layout`: `fields(range)` is
    /// appended to each one's line.
    /// - Complexity: O(``count``) plus the fields made.
    mutating func resolve(_ layout: LayoutService.LayoutRequest, fields: (Range<Int>) -> String) {
        guard awaited.remove(layout) != nil else { return }
        for index in entries.indices {
            if case .awaiting(let line, let range, let awaitedLayout) = entries[index], awaitedLayout == layout {
                entries[index] = .ready(line.appending(" " + fields(range)))
            }
        }
    }

    /// Removes and returns the ready events at the front, in order: up to
    /// the first one that still waits.
    mutating func takeReady() -> [EventLine] {
        var ready: [EventLine] = []
        for entry in entries {
            guard case .ready(let bytes) = entry else { break }
            ready.append(bytes)
        }
        entries.removeFirst(ready.count)
        return ready
    }

    /// Removes and returns every event, in order; those still waiting go
    /// without geometry.
    mutating func takeAll() -> [EventLine] {
        let all = entries.map { entry -> EventLine in
            switch entry {
            case .ready(let bytes): return bytes
            case .awaiting(let line, _, _): return line
            }
        }
        entries.removeAll()
        awaited.removeAll()
        return all
    }
}
