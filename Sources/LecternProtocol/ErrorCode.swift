// ErrorCode.swift: the code words that open every ERR line.

/// The code word of an `ERR` reply: a program switches on it, a person reads
/// the sentence after it (`ERR UNKNOWN unknown command 'PIGN'; did you mean PING?`).
///
/// Codes are upper-case ASCII words. Every code is listed, with when it is
/// sent, in protocol/PROTOCOL.md; a test checks that the two agree.
public enum ErrorCode: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The command name is not in the command table.
    case unknownCommand = "UNKNOWN"
    /// Too few or too many arguments, or an argument of the wrong form.
    case arguments = "ARGS"
    /// The request line cannot be tokenised (an unterminated quote, a bad escape).
    case syntax = "SYNTAX"
    /// The request, or the document text it carries, is not valid UTF-8;
    /// the sentence gives the byte offset of the first bad byte.
    case invalidUTF8 = "UTF8"
    /// The request line is longer than the daemon's maximum; the connection is closed.
    case lineTooLong = "TOOLONG"
    /// The request carries bytes that no text protocol sends (NUL); the
    /// stream cannot be trusted any more and the connection is closed.
    case binary = "BINARY"
    /// The daemon is at its connection limit; the connection is closed.
    case maxClients = "MAXCLIENTS"
    /// An argument that should be a number is not one, or is out of range.
    case number = "NUMBER"
    /// The document named does not exist.
    case noDocument = "NODOC"
    /// The command needs a view of the document (VIEW) on this connection.
    case noView = "NOVIEW"
    /// An offset or sentence number is out of range, or an offset falls
    /// inside a character (a UTF-8 sequence, a surrogate pair, a grapheme).
    case range = "RANGE"
    /// A count limit is reached (documents, attachments).
    case tooMany = "TOOMANY"
    /// HELLO asked for a protocol version this daemon does not speak.
    case version = "VERSION"
    /// An attachment name that the document does not have.
    case noAttachment = "NOATTACH"
    /// The daemon requires AUTH before this command; or, closing the
    /// connection, a request before AUTH is over the small pre-AUTH limits
    /// (see ``RequestDecoder/Limits/unauthenticated``).
    case authenticationRequired = "NOAUTH"
    /// AUTH failed: a wrong token, too many attempts, or no token configured.
    case authentication = "AUTH"
    /// Sent before the daemon closes a connection that was idle too long.
    case idle = "IDLE"
    /// The data directory is read-only: writes are refused, reads work.
    case readOnly = "READONLY"
    /// The data directory's disk is full: writes are refused, reads work.
    case storeFull = "FULL"
    /// The store failed otherwise; nothing was written.
    case store = "STORE"
    /// With `--redis`: Redis cannot be reached, so a write (or a read of a
    /// document this node has not cached) cannot be done; nothing changed.
    case unavailable = "UNAVAILABLE"
    /// No typewriter stream with that number on this connection.
    case noStream = "NOSTREAM"
    /// A literal or heredoc payload is larger than the daemon accepts.
    case payloadTooLarge = "PAYLOAD"
    /// A reply would be larger than the connection's output limit; nothing was sent but this.
    case replyTooLarge = "TOOLARGE"

    public var description: String { rawValue }

    /// Every code, in the order PROTOCOL.md's table lists them (the cases
    /// above are the one list: the SDK's ``LecternErrorCode`` maps from it).
    public static var all: [ErrorCode] { allCases }
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
