// Hello.swift: what HELLO tells a client about the daemon and itself.

/// The reply to HELLO: `OK HELLO protocol=1 server=lecternd/0.1.0 units=utf16 connection=1`.
public struct Hello: Hashable, Sendable {
    /// The protocol version spoken (1).
    public var protocolVersion: Int
    /// The daemon's name and version (`lecternd/0.1.0`).
    public var server: String
    /// The offset unit of this connection from now on.
    public var units: OffsetUnit
    /// This connection's number: other readers see it as `by=` in events.
    public var connection: Int

    init(_ fields: ReplyFields) throws {
        protocolVersion = try fields.int("protocol")
        server = try fields.string("server")
        units = try fields.word("units", as: OffsetUnit.self)
        connection = try fields.int("connection")
    }
}
