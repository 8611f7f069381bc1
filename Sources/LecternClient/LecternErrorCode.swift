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
    /// `IDLE`: the daemon closed the connection after `--idle-timeout`
    /// seconds without a request (reconnecting is the right answer).
    case idle
    /// A code this SDK does not know, with the word as the daemon sent it.
    case unrecognized(String)

    /// The code for the word `rawValue` (`"NODOC"` → ``noDocument``).
    public init(rawValue: String) {
        switch rawValue {
        case ErrorCode.unknownCommand.rawValue: self = .unknownCommand
        case ErrorCode.arguments.rawValue: self = .arguments
        case ErrorCode.syntax.rawValue: self = .syntax
        case ErrorCode.invalidUTF8.rawValue: self = .invalidUTF8
        case ErrorCode.lineTooLong.rawValue: self = .lineTooLong
        case ErrorCode.binary.rawValue: self = .binary
        case ErrorCode.maxClients.rawValue: self = .maxClients
        case ErrorCode.number.rawValue: self = .number
        case ErrorCode.noDocument.rawValue: self = .noDocument
        case ErrorCode.noView.rawValue: self = .noView
        case ErrorCode.range.rawValue: self = .range
        case ErrorCode.tooMany.rawValue: self = .tooMany
        case ErrorCode.version.rawValue: self = .version
        case ErrorCode.noAttachment.rawValue: self = .noAttachment
        case ErrorCode.payloadTooLarge.rawValue: self = .payloadTooLarge
        case ErrorCode.replyTooLarge.rawValue: self = .replyTooLarge
        case ErrorCode.noStream.rawValue: self = .noStream
        case ErrorCode.authenticationRequired.rawValue: self = .authenticationRequired
        case ErrorCode.authentication.rawValue: self = .authenticationFailed
        case ErrorCode.readOnly.rawValue: self = .readOnly
        case ErrorCode.storeFull.rawValue: self = .storageFull
        case ErrorCode.store.rawValue: self = .storeFailed
        case ErrorCode.idle.rawValue: self = .idle
        default: self = .unrecognized(rawValue)
        }
    }

    /// The word on the wire (`NODOC`).
    public var rawValue: String {
        switch self {
        case .unknownCommand: return ErrorCode.unknownCommand.rawValue
        case .arguments: return ErrorCode.arguments.rawValue
        case .syntax: return ErrorCode.syntax.rawValue
        case .invalidUTF8: return ErrorCode.invalidUTF8.rawValue
        case .lineTooLong: return ErrorCode.lineTooLong.rawValue
        case .binary: return ErrorCode.binary.rawValue
        case .maxClients: return ErrorCode.maxClients.rawValue
        case .number: return ErrorCode.number.rawValue
        case .noDocument: return ErrorCode.noDocument.rawValue
        case .noView: return ErrorCode.noView.rawValue
        case .range: return ErrorCode.range.rawValue
        case .tooMany: return ErrorCode.tooMany.rawValue
        case .version: return ErrorCode.version.rawValue
        case .noAttachment: return ErrorCode.noAttachment.rawValue
        case .payloadTooLarge: return ErrorCode.payloadTooLarge.rawValue
        case .replyTooLarge: return ErrorCode.replyTooLarge.rawValue
        case .noStream: return ErrorCode.noStream.rawValue
        case .authenticationRequired: return ErrorCode.authenticationRequired.rawValue
        case .authenticationFailed: return ErrorCode.authentication.rawValue
        case .idle: return ErrorCode.idle.rawValue
        case .readOnly: return ErrorCode.readOnly.rawValue
        case .storageFull: return ErrorCode.storeFull.rawValue
        case .storeFailed: return ErrorCode.store.rawValue
        case .unrecognized(let word): return word
        }
    }

    /// The word on the wire, as ``rawValue``.
    public var description: String { rawValue }
}
