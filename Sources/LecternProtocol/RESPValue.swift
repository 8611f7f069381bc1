// RESPValue.swift: a reply value for Redis clients, encoded as RESP2 or RESP3.

/// A RESP reply value. Maps are RESP3 maps (`%`) and, in RESP2, flat arrays
/// of alternating keys and values — as Redis itself answers HELLO.
public indirect enum RESPValue: Equatable, Sendable {
    case simple(String)
    case bulk([UInt8])
    case integer(Int)
    case array([RESPValue])
    case map([(RESPValue, RESPValue)])

    /// A bulk string from text.
    public static func text(_ string: String) -> RESPValue { .bulk(Array(string.utf8)) }

    /// Appends the encoding for protocol version 2 or 3.
    public func encode(version: Int, into output: inout [UInt8]) {
        switch self {
        case .simple(let text): RESP.simpleString(text, into: &output)
        case .bulk(let bytes): RESP.bulkString(bytes, into: &output)
        case .integer(let value): RESP.integer(value, into: &output)
        case .array(let elements):
            RESP.header(UInt8(ascii: "*"), count: elements.count, into: &output)
            for element in elements { element.encode(version: version, into: &output) }
        case .map(let pairs):
            RESP.header(UInt8(ascii: version >= 3 ? "%" : "*"), count: version >= 3 ? pairs.count : pairs.count * 2, into: &output)
            for (key, value) in pairs {
                key.encode(version: version, into: &output)
                value.encode(version: version, into: &output)
            }
        }
    }

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
