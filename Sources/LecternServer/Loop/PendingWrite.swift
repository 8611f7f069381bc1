// PendingWrite.swift: bytes handed to uv_write, kept alive until its callback.

import CUV
import LecternUV
import Glibc

/// One `uv_write`: the request and a copy of the bytes, in one C allocation
/// that lives until libuv calls back (libuv keeps pointers to both).
///
/// Layout: `[uv_write_t][bytes…]`; the request's `data` points to a retained
/// box holding the byte count and the completion closure.
enum PendingWrite {
    private final class Completion {
        let count: Int
        let done: (Int, Int32) -> Void
        init(count: Int, done: @escaping (Int, Int32) -> Void) {
            self.count = count
            self.done = done
        }
    }

    /// Copies `bytes` and queues them on `stream`. `done(count, status)` runs
    /// on the loop thread when libuv is finished with them, also when the
    /// stream is closed first (status `UV_ECANCELED`).
    ///
    /// - Returns: 0, or the libuv error from `uv_write` (then `done` never runs).
    static func start(
        _ bytes: ArraySlice<UInt8>, on stream: UnsafeMutablePointer<uv_stream_t>,
        done: @escaping (Int, Int32) -> Void
    ) -> Int32 {
        let header = MemoryLayout<uv_write_t>.stride
        guard let memory = calloc(1, header + bytes.count) else { return Int32(UV_ENOMEM.rawValue) }
        let request = memory.bindMemory(to: uv_write_t.self, capacity: 1)
        let payload = memory.advanced(by: header)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { payload.copyMemory(from: base, byteCount: source.count) }
        }
        LoopRequest.retain(Completion(count: bytes.count, done: done), in: request)
        var buffer = uv_buf_init(payload.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
        let status = uv_write(request, stream, &buffer, 1) { request, status in
            guard let request else { return }
            if let completion = LoopRequest.takeContext(of: request, as: Completion.self) {
                completion.done(completion.count, status)
            }
            free(request)
        }
        if status != 0 {
            _ = LoopRequest.takeContext(of: request, as: Completion.self)
            free(memory)
        }
        return status
    }
}
