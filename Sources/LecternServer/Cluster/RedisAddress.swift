// RedisAddress.swift: where lecternd --redis finds Redis.

/// `redis://HOST:PORT[/DB]`: the Redis server a node keeps its documents
/// in, and the database number there (0 unless given).
public struct RedisAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var database: Int

    /// Parses `redis://HOST[:PORT][/DB]` (an IPv6 host in brackets); the
    /// port defaults to 6379 and the database to 0.
    /// - Throws: ``ServerConfiguration/UsageError`` saying what is wrong.
    public init(url: String) throws {
        func fail(_ why: String) -> ServerConfiguration.UsageError {
            ServerConfiguration.UsageError(description: "--redis must look like redis://HOST:PORT[/DB] (\(why)), not '\(url)'")
        }
        guard url.hasPrefix("redis://") else { throw fail("it starts with redis://") }
        var rest = Substring(url.dropFirst("redis://".count))
        if rest.contains("@") { throw fail("a password goes in --redis-password-file, not in the URL") }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let number = rest[rest.index(after: slash)...]
            guard let value = Int(number), (0...65535).contains(value) else { throw fail("DB is a number") }
            database = value
            rest = rest[..<slash]
        }
        var host = rest
        var port = 6379
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("an IPv6 address ends with ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let value = Int(after.dropFirst()), (1...65535).contains(value) else {
                    throw fail("PORT is a number from 1 to 65535")
                }
                port = value
            }
        } else if let colon = rest.lastIndex(of: ":") {
            guard let value = Int(rest[rest.index(after: colon)...]), (1...65535).contains(value) else {
                throw fail("PORT is a number from 1 to 65535")
            }
            port = value
            host = rest[..<colon]
        }
        guard !host.isEmpty else { throw fail("it names a host") }
        self.host = String(host)
        self.port = port
        self.database = database
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "redis://\(shownHost):\(port)" + (database == 0 ? "" : "/\(database)")
    }
}
