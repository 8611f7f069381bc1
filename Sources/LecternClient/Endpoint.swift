// Endpoint.swift: where a daemon listens.

/// The address of a `lecternd`: a TCP host and port, or a Unix-domain socket path.
public enum Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// A host name or IPv4/IPv6 address and a port (lecternd's default is 7878).
    case tcp(host: String, port: UInt16)
    /// The path of a Unix-domain socket (`lecternd --unix-socket PATH`).
    case unix(path: String)

    /// `host:port` (`[v6]:port` for IPv6), or `unix:path`.
    public var description: String {
        switch self {
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): return "unix:\(path)"
        }
    }
}
