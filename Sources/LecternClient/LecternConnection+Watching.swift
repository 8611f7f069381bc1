// LecternConnection+Watching.swift: WATCH, UNWATCH and the document event sequence.

import Foundation

extension LecternConnection {
    /// Starts events for a document: other connections' taps, selections
    /// and changes arrive on ``events(for:)``, with geometry in this
    /// connection's own view. Remembered: a reconnect repeats it.
    ///
    /// - Returns: how many connections watch the document now.
    /// - Throws: ``LecternErrorCode/noDocument``.
    @discardableResult
    public func watch(_ id: String) async throws -> Int {
        var line = RequestLine("WATCH")
        line.word(id)
        let watchers = try await request(line).fields().int("watchers")
        withLock { _ = $0.session.watches.insert(id) }
        return watchers
    }

    /// Stops the events of ``watch(_:)`` (also fine when not watching).
    public func unwatch(_ id: String) async throws {
        var line = RequestLine("UNWATCH")
        line.word(id)
        _ = try await request(line)
        withLock { _ = $0.session.watches.remove(id) }
    }

    /// The events of watched documents — of `document` only, or of all of
    /// them (`nil`) — from now on, in the order the daemon sent them.
    /// Events are delivered apart from replies, so a task awaiting a reply
    /// never sees one. Several sequences may be open at once; each gets
    /// every event it matches. The sequence ends when the connection
    /// closes for good (it survives reconnects).
    ///
    /// - Complexity: events are buffered without bound until consumed.
    public func events(for document: String? = nil) -> AsyncStream<DocumentEvent> {
        let (events, continuation) = AsyncStream.makeStream(of: DocumentEvent.self)
        let id = UUID()
        let open = withLock { state -> Bool in
            guard state.closedError == nil else { return false }
            state.eventSinks[id] = (document, continuation)
            return true
        }
        if open {
            continuation.onTermination = { [weak self] _ in
                self?.withLock { _ = $0.eventSinks.removeValue(forKey: id) }
            }
        } else {
            continuation.finish()
        }
        return events
    }
}
