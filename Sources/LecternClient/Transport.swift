// Transport.swift: one socket, its reader thread and its writer queue.

import Foundation

/// The I/O of one connected socket: a dedicated thread blocks in `recv`
/// and hands each complete reply or event to a callback, in order; a serial
/// Dispatch queue performs the (blocking) writes, in the order they were
/// submitted, so no caller ever blocks on the network.
///
/// A ``LecternConnection`` owns one transport at a time; after a reconnect
/// it has a new one, and callbacks from the old one are told apart by
/// their generation number.
final class Transport: @unchecked Sendable {
    /// Why the reader stopped.
    enum End: Sendable {
        /// The daemon closed the connection, or ``shutdown()`` was called.
        case endOfStream
        /// A socket error.
        case socketError
        /// The daemon sent something unreadable.
        case malformed(LecternError)
    }

    let generation: Int
    private let socket: Socket
    private let writer: DispatchQueue

    init(socket: Socket, generation: Int) {
        self.socket = socket
        self.generation = generation
        writer = DispatchQueue(label: "lectern.client.writer.\(generation)")
    }

    /// Queues `bytes` to be written after everything queued before.
    /// A failed write needs no report: the reader then sees the connection end.
    func send(_ bytes: [UInt8]) {
        writer.async { [socket] in
            socket.sendAll(bytes)
        }
    }

    /// Starts the reader thread. `deliver` is called on it for each message,
    /// then `finish` once, when the stream ends.
    func startReading(
        maximumLineLength: Int,
        deliver: @escaping @Sendable (ServerMessage) -> Void,
        finish: @escaping @Sendable (End) -> Void
    ) {
        let thread = Thread { [socket] in
            var reader = ReplyReader(maximumLineLength: maximumLineLength)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
            defer { buffer.deallocate() }
            while true {
                guard let count = socket.receive(into: buffer) else { return finish(.socketError) }
                guard count > 0 else { return finish(.endOfStream) }
                reader.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                do {
                    while let message = try reader.next() { deliver(message) }
                } catch {
                    socket.shutdown()
                    return finish(.malformed(error as? LecternError ?? .malformedReply("\(error)")))
                }
            }
        }
        thread.name = "lectern.client.reader"
        thread.start()
    }

    /// Ends the connection both ways; the reader thread then finishes.
    func shutdown() {
        socket.shutdown()
    }
}
