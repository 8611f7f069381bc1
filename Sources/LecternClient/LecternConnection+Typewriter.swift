// LecternConnection+Typewriter.swift: TYPE, PAUSE, RESUME, SEEK, SPEED, STOP.

extension LecternConnection {
    /// Starts a typewriter reveal of a document: the daemon reveals it one
    /// grapheme at a time, on schedule, and the returned stream yields a
    /// ``TypewriterEvent/tick(_:)`` per step until ``TypewriterEvent/done(end:graphemes:)``.
    ///
    /// Cancelling the task that iterates the stream sends STOP.
    ///
    /// ```swift
    /// let reveal = try await lectern.type("intro", TypewriterOptions(pace: .charactersPerSecond(30)))
    /// for try await case .tick(let tick) in reveal { draw(prefix: tick.end) }
    /// ```
    ///
    /// - Throws: ``LecternErrorCode/noDocument``, ``LecternErrorCode/number``,
    ///   ``LecternErrorCode/range`` (`from`), ``LecternErrorCode/tooMany``.
    public func type(_ id: String, _ options: TypewriterOptions = TypewriterOptions()) async throws -> TypewriterStream {
        var line = RequestLine("TYPE")
        line.word(id)
        line.options(options.arguments)
        let response = try await send(line, opensStream: true)
        guard let events = response.stream else { throw LecternError.malformedReply("TYPE reply without a stream") }
        return try TypewriterStream(try response.reply.fields(), events: events, connection: self)
    }

    /// Pauses a stream where it is.
    ///
    /// - Throws: ``LecternErrorCode/noStream``.
    @discardableResult
    public func pause(stream: Int) async throws -> StreamPosition {
        try StreamPosition(try await request(Self.streamRequest("PAUSE", stream)).fields())
    }

    /// Resumes a paused stream; the next tick comes one interval later.
    ///
    /// - Throws: ``LecternErrorCode/noStream``.
    @discardableResult
    public func resume(stream: Int) async throws -> StreamPosition {
        try StreamPosition(try await request(Self.streamRequest("RESUME", stream)).fields())
    }

    /// Moves the revealed prefix to `offset` (a grapheme boundary); a tick
    /// for the new position follows.
    ///
    /// - Throws: ``LecternErrorCode/noStream``, ``LecternErrorCode/number``, ``LecternErrorCode/range``.
    @discardableResult
    public func seek(stream: Int, to offset: Int) async throws -> StreamPosition {
        var line = Self.streamRequest("SEEK", stream)
        line.word(String(offset))
        return try StreamPosition(try await request(line).fields())
    }

    /// Changes the pace from the next tick on.
    ///
    /// - Returns: the interval now, in milliseconds.
    /// - Throws: ``LecternErrorCode/noStream``, ``LecternErrorCode/number``.
    @discardableResult
    public func setPace(stream: Int, _ pace: TypewriterPace) async throws -> Int {
        var line = Self.streamRequest("SPEED", stream)
        line.option(pace.argument.0, pace.argument.1)
        return try await request(line).fields().int("interval")
    }

    /// Ends a stream without a ``TypewriterEvent/done(end:graphemes:)``;
    /// its event sequence finishes.
    ///
    /// - Throws: ``LecternErrorCode/noStream``.
    @discardableResult
    public func stop(stream: Int) async throws -> StreamPosition {
        let position = try StreamPosition(try await request(Self.streamRequest("STOP", stream)).fields())
        let continuation = withLock { $0.streams.removeValue(forKey: stream) }
        continuation?.finish()
        return position
    }

    /// `COMMAND stream`.
    static func streamRequest(_ command: String, _ stream: Int) -> RequestLine {
        var line = RequestLine(command)
        line.word(String(stream))
        return line
    }
}
