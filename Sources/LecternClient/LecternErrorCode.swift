// LecternErrorCode.swift: the code word of an ERR reply, as a Swift enum.

import LecternProtocol

/// The code word that opens every `ERR` reply, so that a program can switch
/// on it (protocol/PROTOCOL.md, "Error codes"). The sentence after the code
/// is for people and travels in ``LecternError/server(code:message:)``.
///
/// Codes a newer daemon may add arrive as ``unrecognized(_:)`` with the word
/// itself, never as a decoding failure.
public enum LecternErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// `UNKNOWN`: the command is not one the daemon has.
    case unknownCommand
    /// `ARGS`: too few or too many arguments, or one of the wrong form.
    case arguments
    /// `SYNTAX`: the request line could not be split into tokens.
    case syntax
    /// `UTF8`: the request line or a PUT's text is not valid UTF-8.
    case invalidUTF8
    /// `TOOLONG`: the request line is over the daemon's limit; the daemon closes the connection.
    case lineTooLong
    /// `BINARY`: the request line contains NUL; the daemon closes the connection.
    case binary
    /// `MAXCLIENTS`: the daemon is at its connection limit; it closes the connection.
    case maxClients
    /// `NUMBER`: an argument that must be a number is not one, or is out of range.
    case number
    /// `NODOC`: the document does not exist.
    case noDocument
    /// `NOVIEW`: the command needs this connection's view of the document (VIEW first).
    case noView
    /// `RANGE`: an offset outside the text or inside a character, or no such sentence.
    case range
    /// `TOOMANY`: a count limit (documents, attachments, streams) is reached.
    case tooMany
    /// `VERSION`: HELLO asked for a protocol version the daemon does not speak.
    case version
    /// `NOATTACH`: DETACH of an attachment the document does not have.
    case noAttachment
    /// `PAYLOAD`: a literal or heredoc is over the daemon's payload limit.
    case payloadTooLarge
    /// `TOOLARGE`: the reply would be larger than the daemon's output limit
    /// for a connection (a RENDER of a very large document, a SENTENCES of
    /// too many); ask for less.
    case replyTooLarge
    /// `NOSTREAM`: no typewriter stream with that number on this connection
    /// (it may have finished).
    case noStream
    /// `NOAUTH`: the daemon requires ``LecternConnection/authenticate(token:)``
    /// first; only HELLO, AUTH, PING, HELP and QUIT work before it.
    case authenticationRequired
    /// `AUTH`: a wrong token, a retry too soon after three failures, or
    /// AUTH on a daemon without a token. The tenth failure closes the connection.
    case authenticationFailed
    /// `READONLY`: a write while the daemon's data directory cannot be
    /// written; nothing changed, reads still work.
    case readOnly
    /// `FULL`: a write while the daemon's disk is full; nothing changed.
    case storageFull
    /// `STORE`: the daemon's store failed the write otherwise; nothing changed.
    case storeFailed
    /// `UNAVAILABLE`: the daemon's Redis (`lecternd --redis`) cannot be
    /// reached; nothing changed. Reads of documents the node has cached
    /// still work, and another node may answer.
    case unavailable
    /// `IDLE`: the daemon closed the connection after `--idle-timeout`
    /// seconds without a request (reconnecting is the right answer).
    case idle
    /// A code this SDK does not know, with the word as the daemon sent it.
    case unrecognized(String)

    /// The code for the word `rawValue` (`"NODOC"` → ``noDocument``).
    public init(rawValue: String) {
        self = ErrorCode(rawValue: rawValue).map(LecternErrorCode.init(_:)) ?? .unrecognized(rawValue)
    }

    /// The case of a code of the protocol's list (LecternProtocol's
    /// ``ErrorCode``, which PROTOCOL.md's table mirrors). The one mapping
    /// between the two: the switch is exhaustive, so a code added there does
    /// not compile here until it has its case.
    init(_ code: ErrorCode) {
        switch code {
        case .unknownCommand: self = .unknownCommand
        case .arguments: self = .arguments
        case .syntax: self = .syntax
        case .invalidUTF8: self = .invalidUTF8
        case .lineTooLong: self = .lineTooLong
        case .binary: self = .binary
        case .maxClients: self = .maxClients
        case .number: self = .number
        case .noDocument: self = .noDocument
        case .noView: self = .noView
        case .range: self = .range
        case .tooMany: self = .tooMany
        case .version: self = .version
        case .noAttachment: self = .noAttachment
        case .authenticationRequired: self = .authenticationRequired
        case .authentication: self = .authenticationFailed
        case .idle: self = .idle
        case .readOnly: self = .readOnly
        case .storeFull: self = .storageFull
        case .store: self = .storeFailed
        case .unavailable: self = .unavailable
        case .noStream: self = .noStream
        case .payloadTooLarge: self = .payloadTooLarge
        case .replyTooLarge: self = .replyTooLarge
        }
    }

    /// Each known case's word, derived from the mapping above.
    private static let words: [LecternErrorCode: String] = Dictionary(
        ErrorCode.allCases.map { (LecternErrorCode($0), $0.rawValue) }, uniquingKeysWith: { first, _ in first })

    /// The word on the wire (`NODOC`).
    public var rawValue: String {
        if case .unrecognized(let word) = self { return word }
        // Every other case is one protocol code's (one case per code, none more).
        return Self.words[self] ?? ""
    }

    /// The word on the wire, as ``rawValue``.
    public var description: String { rawValue }
}
