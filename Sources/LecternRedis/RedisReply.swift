// RedisReply.swift: a Redis reply as Swift values, copied out of hiredis's.

/// One reply from Redis (RESP2), owned by Swift: hiredis frees its own
/// reply when the callback returns, so everything is copied out.
public enum RedisReply: Equatable, Sendable {
    case status(String)
    case error(String)
    case integer(Int64)
    /// A bulk string's bytes (binary-safe).
    case bulk([UInt8])
    case array([RedisReply])
    case null
    /// No reply will come: the connection closed (or never opened) before
    /// Redis answered. The command may or may not have been applied.
    case disconnected(String)

    /// A bulk or status reply as text.
    public var string: String? {
        switch self {
        case .bulk(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .status(let text): return text
        default: return nil
        }
    }
}
