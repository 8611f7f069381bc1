// UVHandle.swift: memory and ownership of the load tool's libuv handles.

import CUV
import Glibc

/// The ownership pattern of `LecternServer.LoopHandle`, adapted (the tool
/// must not depend on the server): a handle lives on the C heap from
/// `uv_*_init` until its close callback, its owner is retained in
/// `handle->data` while libuv holds it, and the close callback is the only
/// place that releases the owner and frees the memory.
///
/// Loop thread only.
enum UVHandle {
    /// Zeroed memory for one handle or request of type `H`.
    static func allocate<H>(_ type: H.Type) -> UnsafeMutablePointer<H> {
        guard let memory = calloc(1, MemoryLayout<H>.size) else {
            fatalError("out of memory allocating a \(H.self)")
        }
        return memory.bindMemory(to: H.self, capacity: 1)
    }

    /// Retains `owner` in the handle's `data` until the close callback.
    static func bind<H>(_ handle: UnsafeMutablePointer<H>, to owner: AnyObject) {
        base(handle).pointee.data = Unmanaged.passRetained(owner).toOpaque()
    }

    /// The owner bound to a handle, without changing its retain count.
    static func owner<T: AnyObject>(of handle: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
        guard let handle, let data = handle.assumingMemoryBound(to: uv_handle_t.self).pointee.data else {
            return nil
        }
        return Unmanaged<T>.fromOpaque(data).takeUnretainedValue()
    }

    /// Starts closing the handle, once; the close callback releases the
    /// owner and frees the memory.
    static func close<H>(_ handle: UnsafeMutablePointer<H>) {
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

    /// The `uv_handle_t *` view of any handle type.
    static func base<H>(_ handle: UnsafeMutablePointer<H>) -> UnsafeMutablePointer<uv_handle_t> {
        UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)
    }

    /// The `uv_stream_t *` view of a stream handle.
    static func stream<H>(_ handle: UnsafeMutablePointer<H>) -> UnsafeMutablePointer<uv_stream_t> {
        UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self)
    }

    /// libuv's name for an error code (`ECONNREFUSED`).
    static func errorName(_ code: Int32) -> String {
        String(cString: uv_err_name(code))
    }
}
