// TypewriterStream.swift: a running typewriter reveal, as an AsyncSequence.

/// A typewriter reveal started by ``LecternConnection/type(_:_:)``: its
/// facts, its events as an `AsyncSequence`, and its controls.
///
/// The sequence ends after ``TypewriterEvent/done(end:graphemes:)`` or
/// ``stop()``, and throws ``LecternError/connectionLost`` if the connection
/// drops (a daemon's streams do not survive it). It has one consumer;
/// cancelling the consuming task stops the stream on the daemon.
public struct TypewriterStream: AsyncSequence, Sendable {
    /// Each step of the reveal.
    public typealias Element = TypewriterEvent

    /// The stream number, unique on its connection.
    public let id: Int
    /// The document revealed.
    public let document: String
    /// Where the reveal started.
    public let from: Int
    /// The text's length in the connection's unit.
    public let total: Int
    /// The text's length in graphemes.
    public let graphemes: Int
    /// Milliseconds between graphemes.
    public let interval: Int

    private let events: AsyncThrowingStream<TypewriterEvent, Error>
    private let connection: LecternConnection

    init(_ fields: ReplyFields, events: AsyncThrowingStream<TypewriterEvent, Error>, connection: LecternConnection) throws {
        id = try fields.int("stream")
        document = try fields.string("id")
        from = try fields.int("from")
        total = try fields.int("total")
        graphemes = try fields.int("graphemes")
        interval = try fields.int("interval")
        self.events = events
        self.connection = connection
    }

    /// The iterator of the stream's events; there is one consumer per stream.
    public func makeAsyncIterator() -> AsyncThrowingStream<TypewriterEvent, Error>.Iterator {
        events.makeAsyncIterator()
    }

    /// Pauses the reveal (``LecternConnection/pause(stream:)``).
    @discardableResult
    public func pause() async throws -> StreamPosition { try await connection.pause(stream: id) }

    /// Resumes it (``LecternConnection/resume(stream:)``).
    @discardableResult
    public func resume() async throws -> StreamPosition { try await connection.resume(stream: id) }

    /// Jumps to `offset` (``LecternConnection/seek(stream:to:)``).
    @discardableResult
    public func seek(to offset: Int) async throws -> StreamPosition { try await connection.seek(stream: id, to: offset) }

    /// Changes the pace (``LecternConnection/setPace(stream:_:)``).
    @discardableResult
    public func setPace(_ pace: TypewriterPace) async throws -> Int { try await connection.setPace(stream: id, pace) }

    /// Ends the reveal; the sequence finishes (``LecternConnection/stop(stream:)``).
    @discardableResult
    public func stop() async throws -> StreamPosition { try await connection.stop(stream: id) }
}
