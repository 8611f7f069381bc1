// QueuedWrite.swift: bytes handed to uv_write, kept alive until its callback.

import CUV
import Glibc

/// One `uv_write` whose request and bytes share a single C allocation,
/// freed in the write callback (libuv reads the bytes until then).
enum QueuedWrite {
    /// Starts writing a copy of `bytes`; returns libuv's status (0: started).
    static func start(_ bytes: ArraySlice<UInt8>, on stream: UnsafeMutablePointer<uv_stream_t>, owner: ClientConnection) -> Int32 {
        let headerSize = MemoryLayout<uv_write_t>.stride
        guard let memory = calloc(1, headerSize + bytes.count) else { fatalError("out of memory queueing a write") }
        let request = memory.bindMemory(to: uv_write_t.self, capacity: 1)
        let payload = memory.advanced(by: headerSize)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { payload.copyMemory(from: base, byteCount: source.count) }
        }
        request.pointee.data = Unmanaged.passRetained(Box(owner: owner, count: bytes.count)).toOpaque()
        var buffer = uv_buf_init(payload.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
        let status = uv_write(request, stream, &buffer, 1) { request, status in
            guard let request else { return }
            if let data = request.pointee.data {
                let box = Unmanaged<Box>.fromOpaque(data).takeRetainedValue()
                box.owner.didWrite(count: box.count, status: status)
            }
            free(request)
        }
        if status != 0 {
            if let data = request.pointee.data { Unmanaged<Box>.fromOpaque(data).release() }
            free(memory)
        }
        return status
    }

    private final class Box {
        let owner: ClientConnection
        let count: Int
        init(owner: ClientConnection, count: Int) {
            self.owner = owner
            self.count = count
        }
    }
}
