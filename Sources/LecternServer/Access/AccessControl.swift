// AccessControl.swift: the AUTH token (read, checked, compared in constant
// time), the limits on failed attempts, and the count of connections that
// have not authenticated yet.

import CUV
import Glibc
import LecternProtocol

/// Who may use the daemon. With a token configured, a connection must send
/// `AUTH <token>` before any command but HELLO, AUTH, PING, HELP and QUIT.
///
/// The token comes from a file (`--auth-token-file`) or the environment
/// (`LECTERN_AUTH_TOKEN`), never from the command line, where other users of
/// the machine could read it in the process list. The file must not be
/// readable or writable by group or others (as ssh insists for keys) and
/// must hold exactly one line; a token is one word of printable characters
/// (no whitespace, no control characters), at most ``maximumTokenLength``
/// bytes.
///
/// Failed attempts are limited per connection (``freeAttempts`` at once,
/// then one per ``retryDelayMilliseconds``, closed after
/// ``maximumAttempts``) and per client address across connections
/// (``AuthFailureTable``).
///
/// Loop thread only.
final class AccessControl {
    /// The token's bytes; nil: no authentication required.
    let token: [UInt8]?

    /// Failed attempts a connection may make at once; after that, one per
    /// ``retryDelayMilliseconds``.
    static let freeAttempts = 3
    static let retryDelayMilliseconds: UInt64 = 1000
    /// Failed attempts after which the connection is closed.
    static let maximumAttempts = 10
    /// Longest token, in bytes: it must fit in the small request a
    /// connection may send before it has authenticated.
    static let maximumTokenLength = 1024

    /// Failed attempts by client address.
    var failuresByAddress = AuthFailureTable()
    /// The connections that must still authenticate: added when accepted
    /// (if a token is required), removed when they authenticate or close.
    /// This table alone decides the count, so no path can make it drift.
    /// Each entry holds the loop time (ms) the connection was accepted at,
    /// for `--auth-timeout`.
    private var unauthenticated: [UInt64: UInt64] = [:]

    /// Reads the token as configured.
    ///
    /// - Throws: ``Server/StartError`` with a sentence saying what is wrong
    ///   and how to fix it.
    init(configuration: ServerConfiguration, environment: [String: String]) throws {
        if let path = configuration.authTokenFile {
            token = try Self.readTokenFile(path)
        } else if let value = environment["LECTERN_AUTH_TOKEN"] {
            token = try Self.validated(Array(value.utf8), from: "LECTERN_AUTH_TOKEN")
        } else {
            token = nil
        }
    }

    var isRequired: Bool { token != nil }

    /// Whether `candidate` is the token, in time that depends only on the
    /// lengths, never on where the first difference is.
    func accepts(_ candidate: String) -> Bool {
        guard let token else { return false }
        let given = Array(candidate.utf8)
        var difference = UInt8(truncatingIfNeeded: given.count ^ token.count)
        for index in 0..<max(given.count, token.count) {
            let a = index < given.count ? given[index] : 0
            let b = index < token.count ? token[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }

    // MARK: Unauthenticated connections

    /// Connections accepted that have not authenticated yet.
    var unauthenticatedCount: Int { unauthenticated.count }

    /// Counts a new connection as unauthenticated, unless `limit` are
    /// already: then it is not counted and should be refused.
    func admitUnauthenticated(_ connectionID: UInt64, limit: Int, now: UInt64) -> Bool {
        guard unauthenticated.count < limit else { return false }
        unauthenticated[connectionID] = now
        return true
    }

    /// The connection authenticated, or closed: it no longer counts.
    func stopCounting(_ connectionID: UInt64) {
        unauthenticated[connectionID] = nil
    }

    /// Connections accepted at least `timeout` ms before `now` that have
    /// not authenticated. At most `--max-unauthenticated` are looked at.
    func unauthenticated(since timeout: UInt64, now: UInt64) -> [UInt64] {
        unauthenticated.compactMap { id, accepted in now &- accepted >= timeout ? id : nil }
    }

    // MARK: Reading the token

    /// The token in the file at `path`: a regular file, mode 0600 or
    /// stricter, one line (one trailing LF or CRLF is not part of it).
    static func readTokenFile(_ path: String) throws -> [UInt8] {
        // Non-blocking: a FIFO put there must not hang the start-up.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw Server.StartError(description: "cannot read the token file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw Server.StartError(description: "the token file \(path) is not a regular file")
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o077 != 0 {
            let octal = String(repeating: "0", count: max(0, 4 - String(mode, radix: 8).count)) + String(mode, radix: 8)
            throw Server.StartError(description: "the token file \(path) can be read or written by group or others (mode \(octal)), so other users could learn the token; run: chmod 600 \(path)")
        }
        // A line ending and one byte more: enough to see that it is too long.
        var bytes = [UInt8](repeating: 0, count: maximumTokenLength + 3)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + count, buffer.count - count)
            }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                throw Server.StartError(description: "cannot read the token file \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            count += n
        }
        var line = Array(bytes.prefix(count))
        if line.last == 0x0A {
            line.removeLast()
            if line.last == 0x0D { line.removeLast() }
        }
        return try validated(line, from: "the token file \(path)")
    }

    /// `bytes` if they are a usable token, else why not. `source` names
    /// where they came from, for the sentence.
    static func validated(_ bytes: [UInt8], from source: String) throws -> [UInt8] {
        func refuse(_ problem: String) -> Server.StartError {
            Server.StartError(description: "\(source) \(problem)")
        }
        guard !bytes.isEmpty else { throw refuse("is empty: it must hold the token") }
        guard bytes.count <= maximumTokenLength else {
            throw refuse("holds more than \(maximumTokenLength) bytes: a token is at most \(maximumTokenLength) bytes")
        }
        if bytes.contains(0x0A) || bytes.contains(0x0D) {
            throw refuse("holds more than one line: the token must be exactly one line")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw refuse("is not UTF-8 text")
        }
        let scalars = Array(text.unicodeScalars)
        if scalars.allSatisfy(\.properties.isWhitespace) {
            throw refuse("holds only whitespace, no token")
        }
        for (position, scalar) in scalars.enumerated() {
            let code = "U+" + String(repeating: "0", count: max(0, 4 - String(scalar.value, radix: 16).count)) + String(scalar.value, radix: 16, uppercase: true)
            if scalar.properties.isWhitespace {
                throw refuse("has whitespace in the token (\(code) at character \(position + 1)): a token is one word, without spaces")
            }
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                throw refuse("has a control character in the token (\(code) at character \(position + 1))")
            }
        }
        return bytes
    }
}

@available(*, unavailable)
extension AccessControl: Sendable {}

extension Server {
    /// Checks `candidate` for AUTH (and HELLO … AUTH, `via` says which),
    /// applying the per-address delay, then the per-connection limits, then
    /// the constant-time comparison. A failure is counted for the
    /// connection and its address; a success forgets the address's
    /// failures, stops counting the connection as unauthenticated and
    /// marks it authenticated.
    ///
    /// - Returns: true when accepted; false when that was the last attempt
    ///   the connection had: it was sent its error and is closing.
    /// - Throws: `ERR AUTH` when refused, the connection kept.
    /// - Complexity: O(1) amortized, plus the token's length.
    func authenticate(_ candidate: String, on connection: Connection, tag: String?, via: String) throws -> Bool {
        let session = connection.session
        let now = uv_now(loop)
        let address = AuthFailureTable.address(ofPeer: connection.peer)
        if let wait = access.failuresByAddress.remainingDelay(for: address, now: now) {
            let seconds = (wait + 999) / 1000
            Log.debug("auth_delayed", ["id": connection.id, "peer": connection.peer, "retry_in_s": seconds])
            throw ProtocolError(.authentication, "too many failed attempts from \(AuthFailureTable.describe(address)); retry in \(seconds) s")
        }
        if session.failedAuthAttempts >= AccessControl.freeAttempts,
            now &- session.lastFailedAuth < AccessControl.retryDelayMilliseconds
        {
            throw ProtocolError(.authentication, "too many failed attempts; wait a second between tries")
        }
        guard access.accepts(candidate) else {
            session.failedAuthAttempts += 1
            session.lastFailedAuth = now
            let delay = access.failuresByAddress.recordFailure(of: address, now: now)
            Log.warning("auth_failed", [
                "id": connection.id, "peer": connection.peer, "via": via, "attempts": session.failedAuthAttempts,
                "address_failures": access.failuresByAddress.failures(of: address),
            ])
            if let delay {
                Log.warning("auth_delayed_address", ["address": address, "failures": access.failuresByAddress.failures(of: address), "delay_s": delay / 1000])
            }
            if session.failedAuthAttempts >= AccessControl.maximumAttempts {
                connection.fail(ProtocolError(.authentication, "too many failed attempts; closing"), tag: tag)
                return false
            }
            throw ProtocolError(.authentication, "wrong token")
        }
        access.failuresByAddress.recordSuccess(of: address)
        access.stopCounting(connection.id)
        connection.didAuthenticate()
        return true
    }
}
