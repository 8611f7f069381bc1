// FullBacklogListener.swift: a TCP port whose connects hang, to test the connect timeout.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening socket that never accepts, with its accept queue filled by
/// its own connections: Linux then drops further SYNs, so a connect to it
/// neither succeeds nor fails until the client gives up.
final class FullBacklogListener {
    let port: UInt16
    private var descriptors: [Int32] = []

    struct Failure: Error {}

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure() }
        descriptors.append(listener)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(listener, pointer, length) == 0 && listen(listener, 0) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure() }
        port = UInt16(bigEndian: address.sin_port)
        // Fill the queue: these connects complete or hang in the kernel;
        // non-blocking so that the ones that hang do not block the test.
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard filler >= 0 else { throw Failure() }
            descriptors.append(filler)
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
        }
        usleep(50_000)
    }

    deinit {
        for descriptor in descriptors { close(descriptor) }
    }
}
