// MetricsServer.swift: `--metrics-port`: GET /metrics over HTTP, served by
// libmicrohttpd, with the figures of STATS format=prometheus.

import CUV
import Glibc
import LecternHTTP
import LecternUV

/// The metrics endpoint. The listening socket is bound here, on the loop
/// thread at start-up (so that a taken port is a start-up error naming the
/// address); libmicrohttpd then serves HTTP on it from its own thread.
///
/// Threads (the rule is ``MetricsExchange``'s): the HTTP thread runs
/// ``answer(method:url:exchange:)`` only, which touches nothing but the
/// exchange; a scrape wakes the loop through a `uv_async_t`, whose callback
/// renders the figures on the loop thread and publishes them. ``close()``
/// stops the HTTP server (joining its thread) before it closes the async
/// handle, so no thread can send to the handle once it is gone.
///
/// Loop thread only, but for ``answer(method:url:exchange:)``.
final class MetricsServer {
    /// Seconds a scrape waits for the loop's snapshot before it gets the last one.
    static let snapshotTimeout = 2
    /// The address bound (`127.0.0.1:9478`; the real port when 0 was asked for).
    let address: String
    private let exchange: MetricsExchange
    private let wake: UnsafeMutablePointer<uv_async_t>
    private var http: HTTPDaemon?
    private unowned let server: Server

    /// A pointer libuv allows to be used from any thread (`uv_async_send`).
    private struct AsyncHandle: @unchecked Sendable {
        let handle: UnsafeMutablePointer<uv_async_t>
    }

    /// Binds `host:port` and starts serving.
    ///
    /// - Throws: ``Server/StartError`` naming the address when it cannot be
    ///   bound (taken, not this machine's) or the HTTP server cannot start.
    init(host: String, port: Int, server: Server) throws {
        self.server = server
        let asked = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        guard var storage = SocketAddress.make(host: host, port: port) else {
            throw Server.StartError(description: "cannot serve metrics on \(asked): not an IPv4 or IPv6 address (--metrics-host)")
        }
        let family = Int32(storage.ss_family)
        let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else {
            throw Server.StartError(description: "cannot serve metrics on \(asked): \(String(cString: strerror(errno)))")
        }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0, listen(socket, 64) == 0 else {
            let reason = errno == EADDRINUSE
                ? "the address is in use (another process listens there); choose another --metrics-port"
                : String(cString: strerror(errno))
            Glibc.close(socket)
            throw Server.StartError(description: "cannot serve metrics on \(asked): \(reason)")
        }
        var actual = sockaddr_storage()
        var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &actualLength) }
        }
        address = SocketAddress.describe(actual)

        wake = LoopHandle.allocate(uv_async_t.self)
        let sendable = AsyncHandle(handle: wake)
        exchange = MetricsExchange(wakeLoop: { uv_async_send(sendable.handle) })
        uv_async_init(server.loop, wake) { handle in
            LoopHandle.owner(of: handle, as: MetricsServer.self)?.publish()
        }
        LoopHandle.bind(wake, to: self)

        let exchange = self.exchange
        guard let http = HTTPDaemon.start(listeningSocket: socket, ipv6: family == AF_INET6, answer: { method, url in
            MetricsServer.answer(method: method, url: url, exchange: exchange)
        }) else {
            Glibc.close(socket)
            LoopHandle.close(wake)
            throw Server.StartError(description: "cannot serve metrics on \(address): libmicrohttpd did not start")
        }
        self.http = http
    }

    /// HTTP thread: the reply to one request (status, content type, body).
    private static func answer(method: String, url: String, exchange: MetricsExchange) -> (status: UInt32, contentType: String, body: String) {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        guard path == "/metrics" else {
            return (404, "text/plain; charset=utf-8", "lecternd serves its figures at /metrics (Prometheus text format)\n")
        }
        guard method == "GET" || method == "HEAD" else {
            return (405, "text/plain; charset=utf-8", "GET /metrics\n")
        }
        guard let text = exchange.awaitSnapshot(timeout: Self.snapshotTimeout) else {
            return (503, "text/plain; charset=utf-8", "lecternd has no figures yet (its loop did not answer in \(Self.snapshotTimeout) s)\n")
        }
        return (200, "text/plain; version=0.0.4; charset=utf-8", text)
    }

    /// Loop thread (the async callback): renders and publishes the figures
    /// for every scrape waiting now.
    private func publish() {
        let requests = exchange.unanswered
        guard requests > 0 else { return }
        let exchange = self.exchange
        server.prometheusSnapshot { text in exchange.publish(text, for: requests) }
    }

    /// Loop thread, at shutdown: answers the waiting scrapes, stops the
    /// HTTP server (joining its thread), then releases it and closes the handle.
    func close() {
        guard let http else { return }
        self.http = nil
        exchange.close()
        http.stop()
        LoopHandle.close(wake)
    }
}
