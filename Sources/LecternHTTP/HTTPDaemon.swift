// HTTPDaemon.swift: a tiny GET server on libmicrohttpd, for lecternd's --metrics-port.

internal import CMicroHTTPD

/// An HTTP server on an already listening socket, run by libmicrohttpd on
/// its own thread: each request is answered by `answer` (method, path with
/// query → status, content type, body), called on that thread. Not a
/// hand-written HTTP server: parsing, keep-alive and timeouts are
/// libmicrohttpd's (at most 16 connections, 10 s idle each).
///
/// In its own module so that libmicrohttpd's header (which brings its own
/// view of `<sys/socket.h>`) is imported nowhere else.
///
/// The unsafe part, all here: libmicrohttpd holds a pointer to this object
/// as its callback's context, retained (`Unmanaged.passRetained`) from
/// ``start(listeningSocket:ipv6:answer:)`` until ``stop()`` has returned
/// from `MHD_stop_daemon`, which joins libmicrohttpd's thread, so no
/// callback runs after it; then released, once.
public final class HTTPDaemon: @unchecked Sendable {
    /// The reply to one request: status, content type, body.
    public typealias Answer = @Sendable (_ method: String, _ url: String) -> (status: UInt32, contentType: String, body: String)

    private let answer: Answer
    /// Set once by ``start(listeningSocket:ipv6:answer:)``, cleared by ``stop()``
    /// (both on the thread that owns this object).
    private var daemon: OpaquePointer?

    private init(answer: @escaping Answer) {
        self.answer = answer
    }

    /// Serves `socket` (bound and listening; libmicrohttpd closes it when
    /// stopped), or nil if libmicrohttpd could not start (the socket is then
    /// still the caller's).
    public static func start(listeningSocket socket: Int32, ipv6: Bool, answer: @escaping Answer) -> HTTPDaemon? {
        let server = HTTPDaemon(answer: answer)
        let context = Unmanaged.passRetained(server).toOpaque()
        server.daemon = lectern_mhd_start(socket, ipv6 ? 1 : 0, { context, connection, url, method, _, _, _, _ in
            guard let context, let connection else { return lectern_mhd_no() }
            let server = Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue()
            let reply = server.answer(method.map { String(cString: $0) } ?? "", url.map { String(cString: $0) } ?? "")
            var body = Array(reply.body.utf8)
            return body.withUnsafeMutableBytes { bytes in
                lectern_mhd_respond(connection, reply.status, reply.contentType, bytes.baseAddress, bytes.count)
            }
        }, context)
        guard server.daemon != nil else {
            Unmanaged<HTTPDaemon>.fromOpaque(context).release()
            return nil
        }
        return server
    }

    /// Stops serving: waits for a request being answered, joins the thread,
    /// closes the socket. Idempotent.
    public func stop() {
        guard let daemon else { return }
        self.daemon = nil
        MHD_stop_daemon(daemon)
        Unmanaged.passUnretained(self).release()
    }
}
