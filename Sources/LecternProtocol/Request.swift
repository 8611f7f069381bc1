// Request.swift: one request line, split into a tag, a command and arguments.

/// One argument of a request: a positional value, or `key=value`.
public struct Argument: Equatable, Sendable {
    /// The key of a `key=value` token, or `nil` for a positional argument.
    public var key: String?
    /// The value, with quotes removed and escapes resolved.
    public var value: String
    /// Whether the value was written as a quoted string.
    public var quoted: Bool

    public init(key: String? = nil, value: String, quoted: Bool = false) {
        self.key = key
        self.value = value
        self.quoted = quoted
    }
}

/// A parsed request line: `[@tag] COMMAND argument…`.
///
/// Tokens are separated by spaces or tabs. A token is a bare word, a quoted
/// string (`"two words"`, see ``RequestParser``), or `key=value` where the
/// key is a bare identifier and the value a bare word or a quoted string. A
/// quoted string is never split into key and value, so `"a=b"` is positional.
public struct Request: Equatable, Sendable {
    /// The client's tag (`@7` in `@7 PING`), echoed on the reply's final line.
    public var tag: String?
    /// The command name as the client wrote it.
    public var command: String
    public var arguments: [Argument]
    /// The exact bytes of a literal (`{N}`) or heredoc (`<<WORD`) payload
    /// that followed the request line, if it announced one.
    public var payload: [UInt8]?
    /// How the request was framed; its reply is framed the same way.
    public var framing: Framing = .line

    /// Lectern's own lines, or a Redis (RESP) array of bulk strings.
    public enum Framing: Sendable, Equatable {
        case line
        case resp
    }

    public init(tag: String? = nil, command: String, arguments: [Argument] = [], payload: [UInt8]? = nil) {
        self.tag = tag
        self.command = command
        self.arguments = arguments
        self.payload = payload
    }

    /// The positional arguments, in order.
    public var positional: [String] {
        var values: [String] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments where argument.key == nil { values.append(argument.value) }
        return values
    }

    /// The value of the last `key=value` argument with this key.
    public func value(for key: String) -> String? {
        arguments.last(where: { $0.key == key })?.value
    }
}
