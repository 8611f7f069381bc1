// Socket.swift: a blocking POSIX stream socket, connected with a timeout.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connected stream socket (TCP or Unix-domain), in blocking mode.
///
/// Only the connect is non-blocking, so that it can time out; afterwards a
/// reader thread blocks in ``receive(into:)`` and a serial queue in
/// ``sendAll(_:)``. ``shutdown()`` wakes a blocked reader with end of
/// stream; the descriptor is closed in `deinit`, when neither can use it
/// any more, so it is never reused under their feet.
final class Socket: @unchecked Sendable {
    private let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    deinit { _ = systemClose(fd) }

    /// Connects to `endpoint`, trying each address a host name resolves to.
    ///
    /// - Throws: ``LecternError/connectTimeout`` when `timeout` passes,
    ///   ``LecternError/connectionFailed(_:)`` otherwise.
    static func connect(to endpoint: Endpoint, timeout: Duration) throws -> Socket {
        let deadline = ContinuousClock.now + timeout
        switch endpoint {
        case .unix(let path):
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let capacity = MemoryLayout.size(ofValue: address.sun_path)
            guard path.utf8.count < capacity else {
                throw LecternError.connectionFailed("socket path longer than \(capacity - 1) bytes: \(path)")
            }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: path.utf8)
                raw[path.utf8.count] = 0
            }
            return try withUnsafeBytes(of: &address) { raw in
                try connect(family: AF_UNIX, address: raw, deadline: deadline, describing: endpoint)
            }
        case .tcp(let host, let port):
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = streamType
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let first = list else {
                throw LecternError.connectionFailed("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
            }
            defer { freeaddrinfo(first) }
            var lastError = LecternError.connectionFailed("no address for \(host)")
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let info = entry {
                entry = info.pointee.ai_next
                guard let sockaddr = info.pointee.ai_addr else { continue }
                let raw = UnsafeRawBufferPointer(start: sockaddr, count: Int(info.pointee.ai_addrlen))
                do {
                    return try connect(family: info.pointee.ai_family, address: raw, deadline: deadline, describing: endpoint)
                } catch let error as LecternError {
                    if error == .connectTimeout { throw error }
                    lastError = error
                }
            }
            throw lastError
        }
    }

    private static var streamType: Int32 {
        #if canImport(Glibc)
        return Int32(SOCK_STREAM.rawValue)
        #else
        return SOCK_STREAM
        #endif
    }

    private static func connect(
        family: Int32, address: UnsafeRawBufferPointer, deadline: ContinuousClock.Instant, describing endpoint: Endpoint
    ) throws -> Socket {
        let fd = socket(family, streamType, 0)
        guard fd >= 0 else { throw LecternError.connectionFailed("socket(): \(lastErrorText())") }
        let socket = Socket(fd: fd)
        if family != AF_UNIX {
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let base = address.baseAddress?.assumingMemoryBound(to: sockaddr.self)
        if systemConnect(fd, base, socklen_t(address.count)) != 0 {
            guard errno == EINPROGRESS || errno == EAGAIN else {
                throw LecternError.connectionFailed("\(endpoint): \(lastErrorText())")
            }
            try waitUntilWritable(fd, deadline: deadline)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                throw LecternError.connectionFailed("\(endpoint): \(String(cString: strerror(error)))")
            }
        }
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        return socket
    }

    private static func waitUntilWritable(_ fd: Int32, deadline: ContinuousClock.Instant) throws {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw LecternError.connectTimeout }
            let milliseconds = max(1, Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var pollfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&pollfd, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw LecternError.connectionFailed("poll(): \(lastErrorText())")
            }
        }
    }

    /// Writes all of `bytes`, retrying short writes; false once the peer is gone.
    @discardableResult
    func sendAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { raw in
                systemSend(fd, raw.baseAddress, raw.count, noSignalFlag)
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Blocks until bytes arrive; returns how many (0 at end of stream), or
    /// `nil` on a socket error.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno != EINTR { return nil }
        }
    }

    /// Ends both directions, which wakes a reader blocked in ``receive(into:)``.
    func shutdown() {
        _ = systemShutdown(fd, Int32(SHUT_RDWR))
    }

    private var noSignalFlag: Int32 {
        #if canImport(Glibc)
        return Int32(MSG_NOSIGNAL)
        #else
        return 0
        #endif
    }

    private static func lastErrorText() -> String { String(cString: strerror(errno)) }
}

// The C functions whose names the type's methods shadow, called by module.

private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.connect(fd, address, length)
    #else
    Darwin.connect(fd, address, length)
    #endif
}

private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    #if canImport(Glibc)
    Glibc.send(fd, bytes, count, flags)
    #else
    Darwin.send(fd, bytes, count, flags)
    #endif
}

private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #else
    Darwin.close(fd)
    #endif
}

private func systemShutdown(_ fd: Int32, _ how: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.shutdown(fd, how)
    #else
    Darwin.shutdown(fd, how)
    #endif
}
