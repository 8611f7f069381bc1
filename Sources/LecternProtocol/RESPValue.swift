// RESPValue.swift: a reply value for Redis clients (written by ReplyWriter as RESP2 or RESP3).

/// A RESP reply value. ``ReplyWriter/value(_:into:)`` writes maps as RESP3
/// maps (`%`) and, in RESP2, flat arrays of alternating keys and values —
/// as Redis itself answers HELLO.
public indirect enum RESPValue: Equatable, Sendable {
    case simple(String)
    case bulk([UInt8])
    case integer(Int)
    case array([RESPValue])
    case map([(RESPValue, RESPValue)])

    /// A bulk string from text.
    public static func text(_ string: String) -> RESPValue { .bulk(Array(string.utf8)) }

    public static func == (a: RESPValue, b: RESPValue) -> Bool {
        switch (a, b) {
        case let (.simple(x), .simple(y)): return x == y
        case let (.bulk(x), .bulk(y)): return x == y
        case let (.integer(x), .integer(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.map(x), .map(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}
