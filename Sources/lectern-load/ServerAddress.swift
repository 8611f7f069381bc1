// ServerAddress.swift: the loopback socket address every connection dials.

import CUV
import Glibc

/// A resolved IPv4 or IPv6 address and port, ready for `uv_tcp_connect`.
struct ServerAddress {
    private var storage = sockaddr_storage()
    let description: String

    struct Invalid: Error, CustomStringConvertible { let description: String }

    /// `host` is a numeric address (the options only let loopback through).
    init(host: String, port: UInt16) throws {
        description = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let status: Int32 = withUnsafeMutableBytes(of: &storage) { raw in
            if host.contains(":") {
                return uv_ip6_addr(host, Int32(port), raw.baseAddress?.assumingMemoryBound(to: sockaddr_in6.self))
            }
            return uv_ip4_addr(host, Int32(port), raw.baseAddress?.assumingMemoryBound(to: sockaddr_in.self))
        }
        guard status == 0 else { throw Invalid(description: "'\(host)' is not a numeric address") }
    }

    /// Calls `body` with a `sockaddr *` valid only during the call (libuv
    /// copies the address in `uv_tcp_connect`).
    func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self))
        }
    }
}
