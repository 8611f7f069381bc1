// ErrorCode.swift: the code words that open every ERR line.

/// The code word of an `ERR` reply: a program switches on it, a person reads
/// the sentence after it (`ERR UNKNOWN unknown command 'PIGN'; did you mean PING?`).
///
/// Codes are upper-case ASCII words. Every code is listed, with when it is
/// sent, in protocol/PROTOCOL.md; a test checks that the two agree.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The command name is not in the command table.
    public static let unknownCommand = ErrorCode(rawValue: "UNKNOWN")
    /// Too few or too many arguments, or an argument of the wrong form.
    public static let arguments = ErrorCode(rawValue: "ARGS")
    /// The request line cannot be tokenised (an unterminated quote, a bad escape).
    public static let syntax = ErrorCode(rawValue: "SYNTAX")
    /// The request, or the document text it carries, is not valid UTF-8;
    /// the sentence gives the byte offset of the first bad byte.
    public static let invalidUTF8 = ErrorCode(rawValue: "UTF8")
    /// The request line is longer than the daemon's maximum; the connection is closed.
    public static let lineTooLong = ErrorCode(rawValue: "TOOLONG")
    /// The request carries bytes that no text protocol sends (NUL); the
    /// stream cannot be trusted any more and the connection is closed.
    public static let binary = ErrorCode(rawValue: "BINARY")
    /// The daemon is at its connection limit; the connection is closed.
    public static let maxClients = ErrorCode(rawValue: "MAXCLIENTS")
    /// A literal or heredoc payload is larger than the daemon accepts.
    public static let payloadTooLarge = ErrorCode(rawValue: "PAYLOAD")
    /// A reply would be larger than the connection's output limit; nothing was sent but this.
    public static let replyTooLarge = ErrorCode(rawValue: "TOOLARGE")

    /// An argument that should be a number is not one, or is out of range.
    public static let number = ErrorCode(rawValue: "NUMBER")
    /// The document named does not exist.
    public static let noDocument = ErrorCode(rawValue: "NODOC")
    /// The command needs a view of the document (VIEW) on this connection.
    public static let noView = ErrorCode(rawValue: "NOVIEW")
    /// An offset or sentence number is out of range, or an offset falls
    /// inside a character (a UTF-8 sequence, a surrogate pair, a grapheme).
    public static let range = ErrorCode(rawValue: "RANGE")
    /// A count limit is reached (documents, attachments).
    public static let tooMany = ErrorCode(rawValue: "TOOMANY")
    /// HELLO asked for a protocol version this daemon does not speak.
    public static let version = ErrorCode(rawValue: "VERSION")
    /// An attachment name that the document does not have.
    public static let noAttachment = ErrorCode(rawValue: "NOATTACH")

    /// No typewriter stream with that number on this connection.
    public static let noStream = ErrorCode(rawValue: "NOSTREAM")

    /// The data directory is read-only: writes are refused, reads work.
    public static let readOnly = ErrorCode(rawValue: "READONLY")
    /// The data directory's disk is full: writes are refused, reads work.
    public static let storeFull = ErrorCode(rawValue: "FULL")
    /// The store failed otherwise; nothing was written.
    public static let store = ErrorCode(rawValue: "STORE")

    /// The daemon requires AUTH before this command; or, closing the
    /// connection, a request before AUTH is over the small pre-AUTH limits
    /// (see ``RequestDecoder/Limits/unauthenticated``).
    public static let authenticationRequired = ErrorCode(rawValue: "NOAUTH")
    /// AUTH failed: a wrong token, too many attempts, or no token configured.
    public static let authentication = ErrorCode(rawValue: "AUTH")

    /// Sent before the daemon closes a connection that was idle too long.
    public static let idle = ErrorCode(rawValue: "IDLE")

    /// The codes defined by this module, in the order PROTOCOL.md lists them.
    public static let all: [ErrorCode] = [
        .unknownCommand, .arguments, .syntax, .invalidUTF8, .lineTooLong, .binary, .maxClients, .payloadTooLarge,
        .number, .noDocument, .noView, .range, .tooMany, .version, .noAttachment, .noStream,
        .readOnly, .storeFull, .store, .authenticationRequired, .authentication, .idle,
        .replyTooLarge,
    ]
}

/// A failed request: the code word and a sentence for people.
public struct ProtocolError: Error, Equatable, Sendable {
    public let code: ErrorCode
    public let message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
