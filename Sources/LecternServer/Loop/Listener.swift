// Listener.swift: a listening socket, TCP or Unix, and what it accepts.

import CUV
import LecternUV
import Glibc

/// One listening socket: TCP on an address and port, or a Unix-domain socket
/// created with mode 0600 (only the daemon's user may connect).
///
/// A Unix socket path is taken over only when it is a socket nobody answers
/// on (one left by a daemon that was killed): something that is not a
/// socket, or a socket another daemon listens on, is refused and left
/// alone. On close the path is unlinked only if it is still the socket this
/// listener created (same device and inode), never what replaced it.
///
/// Owns its handle (see ``LoopHandle``); accepted connections are handed to
/// the server. Loop thread only.
final class Listener {
    enum Kind {
        case tcp
        case unix(path: String)
    }

    let kind: Kind
    unowned let server: Server
    let stream: UnsafeMutablePointer<uv_stream_t>
    /// Where it listens, for logs: `127.0.0.1:7878` or `unix:/run/lectern.sock`.
    private(set) var address = ""
    /// The Unix socket file this listener created (device, inode), once
    /// bound: the only file ``close()`` may unlink.
    private var createdSocket: (device: UInt64, inode: UInt64)?

    /// Binds and listens. Throws ``Server/StartError`` with libuv's reason.
    init(kind: Kind, host: String, port: Int, server: Server) throws {
        self.kind = kind
        self.server = server
        switch kind {
        case .tcp:
            let tcp = LoopHandle.allocate(uv_tcp_t.self)
            uv_tcp_init(server.loop, tcp)
            stream = LoopHandle.stream(tcp)
        case .unix:
            let pipe = LoopHandle.allocate(uv_pipe_t.self)
            uv_pipe_init(server.loop, pipe, 0)
            stream = LoopHandle.stream(pipe)
        }
        LoopHandle.bind(stream, to: self)
        do {
            try bind(host: host, port: port)
        } catch {
            close()
            throw error
        }
        let status = uv_listen(stream, 511) { stream, status in
            guard let listener = LoopHandle.owner(of: stream, as: Listener.self) else { return }
            listener.server.acceptConnection(from: listener, status: status)
        }
        guard status == 0 else {
            close()
            throw Server.StartError(description: "cannot listen on \(address): \(Self.reason(status))")
        }
    }

    /// libuv's reason, and for a taken port what to do about it.
    private static func reason(_ status: Int32) -> String {
        let reason = String(cString: uv_strerror(status))
        guard status == UV_EADDRINUSE.rawValue else { return reason }
        return "\(reason) (another program listens there: stop it, or choose another --port)"
    }

    private func bind(host: String, port: Int) throws {
        switch kind {
        case .tcp:
            guard var storage = SocketAddress.make(host: host, port: port) else {
                throw Server.StartError(description: "'\(host)' is not an IPv4 or IPv6 address")
            }
            // The address asked for, until the kernel says which port it
            // gave: libuv defers a taken port's EADDRINUSE to uv_listen, and
            // the socket it failed to bind has no name (0.0.0.0:0).
            address = SocketAddress.describe(storage)
            let tcp = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: uv_tcp_t.self)
            let status = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_bind(tcp, $0, 0) }
            }
            guard status == 0 else {
                throw Server.StartError(description: "cannot listen on \(address): \(Self.reason(status))")
            }
            var bound = sockaddr_storage()
            var length = Int32(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_getsockname(tcp, $0, &length) }
            }
            if named == 0, Self.port(of: bound) != 0 { address = SocketAddress.describe(bound) }

        case .unix(let path):
            address = "unix:\(path)"
            // A socket file left by a daemon that did not stop cleanly would
            // make bind fail; remove it, but never remove anything else.
            var info = stat()
            if lstat(path, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                    throw Server.StartError(description: "\(path) exists and is not a socket; not replacing it (remove it, or choose another --unix-socket)")
                }
                if let refusal = Self.refusalToTakeOver(socketAt: path) {
                    throw Server.StartError(description: refusal)
                }
                unlink(path)
            }
            guard var unixAddress = SocketAddress.makeUnix(path: path) else {
                throw Server.StartError(description: "cannot listen on \(path): a Unix socket path has at most \(SocketAddress.maximumUnixPathLength) bytes")
            }
            // Bound here and handed to libuv, not with uv_pipe_bind: a pipe
            // libuv bound is unlinked by path when it closes, whatever file
            // the path names by then.
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else {
                throw Server.StartError(description: "cannot listen on \(path): \(String(cString: strerror(errno)))")
            }
            // Created 0600 from the start: no window in which others may connect.
            let previous = umask(0o177)
            let bound = withUnsafePointer(to: &unixAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            let bindError = errno
            umask(previous)
            guard bound == 0 else {
                Glibc.close(descriptor)
                throw Server.StartError(description: "cannot listen on \(path): \(String(cString: strerror(bindError)))")
            }
            if lstat(path, &info) == 0 {
                createdSocket = (UInt64(info.st_dev), UInt64(info.st_ino))
            }
            chmod(path, 0o600)
            let pipe = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: uv_pipe_t.self)
            let status = uv_pipe_open(pipe, descriptor)
            guard status == 0 else {
                Glibc.close(descriptor)
                throw Server.StartError(description: "cannot listen on \(path): \(String(cString: uv_strerror(status)))")
            }
        }
    }

    /// Why the socket at `path` must not be replaced, or nil if it is stale:
    /// a connection to it is refused, so no daemon listens there. Connected
    /// (or "try again": a live listener with a full backlog) means another
    /// daemon serves it; any other error (no permission to connect, say)
    /// leaves the question open, and an open question is a refusal.
    /// Non-blocking, so a live but stuck daemon cannot hang the start-up.
    static func refusalToTakeOver(socketAt path: String) -> String? {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else {
            return "cannot check whether a daemon listens on \(path): \(String(cString: strerror(errno))); not replacing it"
        }
        defer { Glibc.close(probe) }
        guard var address = SocketAddress.makeUnix(path: path) else {
            return "cannot listen on \(path): a Unix socket path has at most \(SocketAddress.maximumUnixPathLength) bytes"
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        let failure = errno
        if status == 0 || failure == EAGAIN || failure == EINPROGRESS {
            return "another daemon is listening on \(path) (a connection to it succeeded); not taking it over: stop it, or choose another --unix-socket"
        }
        // Refused: nobody listens; gone: removed meanwhile, nothing to replace.
        if failure == ECONNREFUSED || failure == ENOENT { return nil }
        return "cannot tell whether a daemon listens on \(path) (connect: \(String(cString: strerror(failure)))); not replacing it"
    }

    /// The port of an IPv4 or IPv6 address; 0 for one not bound yet.
    private static func port(of storage: sockaddr_storage) -> UInt16 {
        var storage = storage
        return withUnsafePointer(to: &storage) { pointer in
            if Int32(pointer.pointee.ss_family) == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            if Int32(pointer.pointee.ss_family) == AF_INET {
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
            return 0
        }
    }

    /// A new handle of the right kind for the next accepted connection.
    func makeClientStream() -> UnsafeMutablePointer<uv_stream_t> {
        switch kind {
        case .tcp:
            let tcp = LoopHandle.allocate(uv_tcp_t.self)
            uv_tcp_init(server.loop, tcp)
            return LoopHandle.stream(tcp)
        case .unix:
            let pipe = LoopHandle.allocate(uv_pipe_t.self)
            uv_pipe_init(server.loop, pipe, 0)
            return LoopHandle.stream(pipe)
        }
    }

    var isTCP: Bool {
        if case .tcp = kind { return true }
        return false
    }

    /// Closes the handle and removes the socket file this listener created,
    /// if the path still names that file: nothing it did not create (a
    /// file it refused to replace, a socket another daemon put there since).
    func close() {
        LoopHandle.close(stream)
        guard case .unix(let path) = kind, let created = createdSocket else { return }
        createdSocket = nil
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK,
            UInt64(info.st_dev) == created.device, UInt64(info.st_ino) == created.inode
        {
            unlink(path)
        }
    }
}
