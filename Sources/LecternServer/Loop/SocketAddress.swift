// SocketAddress.swift: parsing and printing IPv4/IPv6 socket addresses.

import CUV
import Glibc

/// Socket addresses as the daemon takes them from flags and prints them in logs.
enum SocketAddress {
    /// `host:port` as a `sockaddr_storage`: IPv6 when the host has a colon.
    static func make(host: String, port: Int) -> sockaddr_storage? {
        var storage = sockaddr_storage()
        let status: Int32 = withUnsafeMutablePointer(to: &storage) { pointer in
            if host.contains(":") {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    uv_ip6_addr(host, Int32(port), $0)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                uv_ip4_addr(host, Int32(port), $0)
            }
        }
        return status == 0 ? storage : nil
    }

    /// Longest Unix-domain socket path, in bytes (`sun_path` less its NUL).
    static let maximumUnixPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// `path` as a Unix-domain socket address, or nil if it is too long.
    static func makeUnix(path: String) -> sockaddr_un? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumUnixPathLength, !bytes.contains(0) else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }

    /// Whether `host` is a loopback address (127.0.0.0/8 or ::1), reachable
    /// only from this machine.
    static func isLoopback(host: String) -> Bool {
        if host == "::1" || host == "localhost" { return true }
        let parts = host.split(separator: ".")
        return parts.count == 4 && parts.first == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// `127.0.0.1:7878` or `[::1]:7878`.
    static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        let family = Int32(storage.ss_family)
        var name = [CChar](repeating: 0, count: 64)
        return withUnsafePointer(to: &storage) { pointer -> String in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    uv_ip6_name(address, &name, name.count)
                    return "[\(String(cString: name))]:\(UInt16(bigEndian: address.pointee.sin6_port))"
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                uv_ip4_name(address, &name, name.count)
                return "\(String(cString: name)):\(UInt16(bigEndian: address.pointee.sin_port))"
            }
        }
    }
}
