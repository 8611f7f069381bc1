// LoopHandle.swift: memory and ownership of libuv handles.

import CUV
import Glibc

/// How Lectern holds libuv handles (the pattern of libuv's own code, in Swift).
///
/// A handle is a C struct whose memory must stay put while the loop holds it,
/// from `uv_*_init` until its close callback. Each handle is allocated here
/// on the C heap, and its owner (one Swift object) is retained in
/// `handle->data` while libuv holds it. ``close(_:)`` starts `uv_close`;
/// the close callback releases the owner and frees the memory. That callback
/// is the only place either happens.
///
/// Used by the daemon and by lectern-load. Loop thread only.
public enum LoopHandle {
    /// Zeroed memory for one handle of type `H` (`uv_tcp_t`, `uv_check_t`, …).
    public static func allocate<H>(_ type: H.Type) -> UnsafeMutablePointer<H> {
        guard let memory = calloc(1, MemoryLayout<H>.size) else {
            fatalError("out of memory allocating a \(H.self)")
        }
        return memory.bindMemory(to: H.self, capacity: 1)
    }

    /// Retains `owner` in the handle's `data` until the close callback.
    /// Call once, right after a successful `uv_*_init`.
    public static func bind<H>(_ handle: UnsafeMutablePointer<H>, to owner: AnyObject) {
        base(handle).pointee.data = Unmanaged.passRetained(owner).toOpaque()
    }

    /// The owner bound to a handle, without changing its retain count.
    public static func owner<T: AnyObject>(of handle: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
        guard let handle, let data = handle.assumingMemoryBound(to: uv_handle_t.self).pointee.data else {
            return nil
        }
        return Unmanaged<T>.fromOpaque(data).takeUnretainedValue()
    }

    /// Starts closing the handle, once; the close callback frees it. Memory of
    /// a handle whose init failed (never bound, never given to libuv) is freed
    /// with ``free(_:)`` instead.
    public static func close<H>(_ handle: UnsafeMutablePointer<H>) {
        let h = base(handle)
        guard uv_is_closing(h) == 0 else { return }
        uv_close(h) { closed in
            guard let closed else { return }
            if let data = closed.pointee.data {
                Unmanaged<AnyObject>.fromOpaque(data).release()
                closed.pointee.data = nil
            }
            Glibc.free(closed)
        }
    }

    /// Frees a handle that libuv never took (its init failed).
    public static func free<H>(_ handle: UnsafeMutablePointer<H>) {
        Glibc.free(handle)
    }

    /// The `uv_handle_t *` view of any handle type.
    public static func base<H>(_ handle: UnsafeMutablePointer<H>) -> UnsafeMutablePointer<uv_handle_t> {
        UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)
    }

    /// The `uv_stream_t *` view of a stream handle (`uv_tcp_t`, `uv_pipe_t`).
    public static func stream<H>(_ handle: UnsafeMutablePointer<H>) -> UnsafeMutablePointer<uv_stream_t> {
        UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self)
    }

    /// libuv's name for an error code (`ECONNRESET`), for logs.
    public static func errorName(_ code: Int32) -> String {
        String(cString: uv_err_name(code))
    }
}

/// How Lectern holds libuv requests (`uv_work_t`, `uv_write_t`): the same
/// pattern as ``LoopHandle``, for a request's lifetime. A request's `data`
/// retains one Swift object (its context) from just before the request is
/// submitted until its final callback (the after-work or write callback)
/// takes it back with ``takeContext(of:as:)``: the one place it is released,
/// besides ``takeContext(of:as:)`` right after a submission libuv refused,
/// when no callback will come. Taking clears `data`, so a context is
/// released at most once.
///
/// `R` is a libuv request type: a C struct that starts with `uv_req_t`'s fields.
public enum LoopRequest {
    /// Retains `context` in the request's `data`. Call once, before submitting it.
    public static func retain<R>(_ context: AnyObject, in request: UnsafeMutablePointer<R>) {
        base(request).pointee.data = Unmanaged.passRetained(context).toOpaque()
    }

    /// The context, still held by the request: for a callback before the
    /// final one (`uv_queue_work`'s work callback, on a pool thread).
    public static func context<T: AnyObject, R>(of request: UnsafeMutablePointer<R>, as type: T.Type) -> T? {
        guard let data = base(request).pointee.data else { return nil }
        return Unmanaged<T>.fromOpaque(data).takeUnretainedValue()
    }

    /// Takes the context back from the request (nil if it holds none): in
    /// its final callback, or after a refused submission.
    public static func takeContext<T: AnyObject, R>(of request: UnsafeMutablePointer<R>, as type: T.Type) -> T? {
        let request = base(request)
        guard let data = request.pointee.data else { return nil }
        request.pointee.data = nil
        return Unmanaged<T>.fromOpaque(data).takeRetainedValue()
    }

    private static func base<R>(_ request: UnsafeMutablePointer<R>) -> UnsafeMutablePointer<uv_req_t> {
        UnsafeMutableRawPointer(request).assumingMemoryBound(to: uv_req_t.self)
    }
}
