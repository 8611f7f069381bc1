// LecternError.swift: everything a LecternConnection method can throw.

/// Why a request failed: the daemon said no (``server(code:message:)``), or
/// the connection could not carry the request.
///
/// ```swift
/// do {
///     _ = try await lectern.lines(of: "intro")
/// } catch LecternError.server(.noView, _) {
///     _ = try await lectern.view("intro", ViewOptions(width: 320))
/// }
/// ```
public enum LecternError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The daemon answered `ERR <code> <message>`; the connection is still
    /// usable unless the code is one the daemon closes on
    /// (``LecternErrorCode/lineTooLong``, ``LecternErrorCode/binary``,
    /// ``LecternErrorCode/maxClients``).
    case server(code: LecternErrorCode, message: String)
    /// No connection could be made: name resolution, refusal, or a socket
    /// error; the text says which.
    case connectionFailed(String)
    /// The connection was not made within the connect timeout.
    case connectTimeout
    /// The reply did not come within the connection's `requestTimeout`
    /// (``LecternConnection/requestTimeout``). The request may or may not
    /// have run; the connection stays usable, and the late reply is dropped.
    case requestTimeout
    /// The connection ended (the daemon went away, or a socket error) before
    /// the reply came. The request may or may not have run.
    case connectionLost
    /// The connection was closed by ``LecternConnection/close()`` or QUIT.
    case closed
    /// The connection is down and being re-established (see
    /// ``ReconnectPolicy``); try again after ``ConnectionState/connected``.
    case notConnected
    /// The daemon sent something this SDK cannot read; the text shows it.
    /// The connection is closed, because it can no longer be trusted to be in step.
    case malformedReply(String)

    /// The protocol error code, when the daemon answered `ERR`.
    public var code: LecternErrorCode? {
        if case .server(let code, _) = self { return code }
        return nil
    }

    /// A sentence for logs: `ERR NODOC no document 'x' …`, `connect timed out`.
    public var description: String {
        switch self {
        case .server(let code, let message): return "ERR \(code) \(message)"
        case .connectionFailed(let reason): return "cannot connect: \(reason)"
        case .connectTimeout: return "connect timed out"
        case .requestTimeout: return "no reply within the request timeout"
        case .connectionLost: return "connection lost before the reply"
        case .closed: return "connection closed"
        case .notConnected: return "not connected (reconnecting)"
        case .malformedReply(let text): return "malformed reply: \(text)"
        }
    }
}
