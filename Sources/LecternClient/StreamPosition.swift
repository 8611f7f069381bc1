// StreamPosition.swift: where a typewriter stream stands.

/// Where a typewriter stream stands: PAUSE, RESUME, SEEK and STOP report it.
public struct StreamPosition: Hashable, Sendable {
    /// The stream number.
    public var stream: Int
    /// End of the revealed prefix, in the connection's unit.
    public var end: Int
    /// The same position in graphemes, when the reply gives it (PAUSE, SEEK).
    public var graphemes: Int?

    init(_ fields: ReplyFields) throws {
        stream = try fields.int("stream")
        end = try fields.int("end")
        graphemes = try fields.optional(fields.int, "graphemes")
    }
}
