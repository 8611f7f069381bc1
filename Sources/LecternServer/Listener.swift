// Listener.swift: a listening socket, TCP or Unix, and what it accepts.

import CUV
import LecternUV
import Glibc

/// One listening socket: TCP on an address and port, or a Unix-domain socket
/// created with mode 0600 (only the daemon's user may connect).
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
            throw Server.StartError(description: "cannot listen on \(address): \(String(cString: uv_strerror(status)))")
        }
    }

    private func bind(host: String, port: Int) throws {
        switch kind {
        case .tcp:
            guard var storage = SocketAddress.make(host: host, port: port) else {
                throw Server.StartError(description: "'\(host)' is not an IPv4 or IPv6 address")
            }
            let tcp = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: uv_tcp_t.self)
            let status = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_bind(tcp, $0, 0) }
            }
            guard status == 0 else {
                throw Server.StartError(description: "cannot listen on \(host):\(port): \(String(cString: uv_strerror(status)))")
            }
            var bound = sockaddr_storage()
            var length = Int32(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_getsockname(tcp, $0, &length) }
            }
            address = SocketAddress.describe(bound)

        case .unix(let path):
            address = "unix:\(path)"
            // A socket file left by a daemon that did not stop cleanly would
            // make bind fail; remove it, but never remove anything else.
            var info = stat()
            if lstat(path, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                    throw Server.StartError(description: "\(path) exists and is not a socket; not replacing it")
                }
                unlink(path)
            }
            let pipe = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: uv_pipe_t.self)
            // Created 0600 from the start: no window in which others may connect.
            let previous = umask(0o177)
            let status = uv_pipe_bind(pipe, path)
            umask(previous)
            guard status == 0 else {
                throw Server.StartError(description: "cannot listen on \(path): \(String(cString: uv_strerror(status)))")
            }
            chmod(path, 0o600)
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

    func close() {
        LoopHandle.close(stream)
        if case .unix(let path) = kind { unlink(path) }
    }
}
