// NodeAddress.swift: one server of `--nodes`, a loopback host and a port.

/// A loopback address and port that connections dial: `--host` and
/// `--port`, or one entry of `--nodes HOST:PORT,HOST:PORT,…`.
///
/// Connection n of a run (numbered over the whole run, across threads)
/// dials node n mod the number of nodes, so connections are spread
/// round-robin; fan-out's tapper is connection 0, on the first node.
struct NodeAddress: Equatable, CustomStringConvertible {
    let host: String
    let port: UInt16

    /// `127.0.0.1:7878`, or `[::1]:7878`.
    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Nodes at most in `--nodes`.
    static let maximumNodes = 64

    /// Parses `--nodes`: comma-separated `HOST:PORT` entries (`[::1]:PORT`
    /// for IPv6), each host loopback only (``LoadOptions/loopbackHost(_:)``).
    /// A node may be named twice (two connections' worth of one server).
    static func list(_ text: String) throws -> [NodeAddress] {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !text.isEmpty, entries.count <= maximumNodes else {
            throw LoadOptions.UsageError(description: "--nodes needs 1 to \(maximumNodes) HOST:PORT entries, separated by commas")
        }
        return try entries.map { try node(String($0)) }
    }

    private static func node(_ entry: String) throws -> NodeAddress {
        guard let colon = entry.lastIndex(of: ":"), let port = UInt16(entry[entry.index(after: colon)...]), port > 0 else {
            throw LoadOptions.UsageError(description: "--nodes: '\(entry)' is not HOST:PORT (a port from 1 to 65535)")
        }
        var host = Substring(entry[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        do {
            return NodeAddress(host: try LoadOptions.loopbackHost(String(host)), port: port)
        } catch {
            throw LoadOptions.UsageError(description: "--nodes: \(host) is not a loopback address (127.0.0.0/8, ::1 or localhost); lectern-load only loads this machine")
        }
    }
}
