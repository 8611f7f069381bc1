// LecternConnection+Session.swift: HELLO, AUTH, PING, HELP, STATS, QUIT.

extension LecternConnection {
    /// Greets the daemon (protocol version 1) and chooses this connection's
    /// offset unit. Remembered: a reconnect repeats it.
    ///
    /// - Parameters:
    ///   - name: the client's name, for the daemon's logs.
    ///   - units: the unit of every offset from now on (default: unchanged, initially UTF-16).
    /// - Throws: ``LecternErrorCode/version``, ``LecternErrorCode/arguments``.
    @discardableResult
    public func hello(name: String? = nil, units: OffsetUnit? = nil) async throws -> Hello {
        var line = RequestLine("HELLO")
        line.word("1")
        if let name { line.option("name", name) }
        if let units { line.option("units", units.rawValue) }
        let hello = try Hello(try await request(line).fields())
        withLock { state in
            state.hello = hello
            state.units = hello.units
            state.session.saidHello = true
            if let name { state.session.helloName = name }
            state.session.helloUnits = hello.units
        }
        return hello
    }

    /// Authenticates this connection with the daemon's token (`AUTH`), which
    /// a daemon started with `--auth-token-file` or `LECTERN_AUTH_TOKEN`
    /// requires before any command but HELLO, AUTH, PING, HELP and QUIT.
    /// Remembered (in this object's memory, for as long as it lives): a
    /// reconnect repeats it right after HELLO.
    ///
    /// - Throws: ``LecternErrorCode/authenticationFailed`` (wrong token, too
    ///   many attempts, or a daemon without a token).
    public func authenticate(token: String) async throws {
        var line = RequestLine("AUTH")
        line.word(token)
        _ = try await request(line)
        withLock { $0.session.authToken = token }
    }

    /// Checks that the daemon answers (`OK PONG`).
    public func ping() async throws {
        _ = try await request(RequestLine("PING"))
    }

    /// Sends `message` and returns the daemon's echo of it, which is the
    /// same text (it travels quoted both ways).
    public func ping(_ message: String) async throws -> String {
        var line = RequestLine("PING")
        line.word(message)
        return try await request(line).fields().word(at: 0)
    }

    /// The command list: one line per command, its name and a summary.
    public func help() async throws -> [String] {
        try await request(RequestLine("HELP")).data.compactMap(\.text)
    }

    /// One command's usage, summary and examples, as lines of text.
    ///
    /// - Throws: ``LecternErrorCode/unknownCommand`` for a name that is not a command.
    public func help(_ command: String) async throws -> [String] {
        var line = RequestLine("HELP")
        line.word(command)
        return try await request(line).data.compactMap(\.text)
    }

    /// The daemon's figures.
    public func stats() async throws -> Stats {
        try Stats(try await request(RequestLine("STATS")).dataFields())
    }

    /// Says goodbye: the daemon replies, then closes the connection. Nothing
    /// is reconnected; later requests fail with ``LecternError/closed``.
    public func quit() async throws {
        _ = try await request(RequestLine("QUIT"))
    }
}
