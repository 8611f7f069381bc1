// AccessControl.swift: the AUTH token, compared in constant time, and the
// per-connection limit on failed attempts.

import Foundation

/// Who may use the daemon. With a token configured, a connection must send
/// `AUTH <token>` before any command but HELLO, AUTH, PING, HELP and QUIT.
///
/// The token comes from a file (`--auth-token-file`) or the environment
/// (`LECTERN_AUTH_TOKEN`), never from the command line, where other users of
/// the machine could read it in the process list.
struct AccessControl {
    /// The token's bytes; nil: no authentication required.
    let token: [UInt8]?

    /// Failed attempts a connection may make at once; after that, one per
    /// ``retryDelayMilliseconds``.
    static let freeAttempts = 3
    static let retryDelayMilliseconds: UInt64 = 1000
    /// Failed attempts after which the connection is closed.
    static let maximumAttempts = 10

    /// Reads the token as configured. A file's trailing newline is not part of it.
    init(configuration: ServerConfiguration, environment: [String: String]) throws {
        if let path = configuration.authTokenFile {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Server.StartError(description: "cannot read the token file \(path)")
            }
            var bytes = [UInt8](data)
            while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
            guard !bytes.isEmpty else { throw Server.StartError(description: "the token file \(path) is empty") }
            token = bytes
        } else if let value = environment["LECTERN_AUTH_TOKEN"] {
            guard !value.isEmpty else { throw Server.StartError(description: "LECTERN_AUTH_TOKEN is empty") }
            token = Array(value.utf8)
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
}
