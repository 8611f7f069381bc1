// Fuzzing.swift: the whole request path, bytes in to bytes out, for fuzzers
// and for replaying their corpus in tests.

import CUV
import Glibc
import LecternServer

/// Feeds arbitrary bytes to a real daemon, in process: an in-memory store,
/// the real decoder, dispatcher and command handlers, and a real libuv
/// stream (one end of a Unix socketpair; the other end plays the client,
/// sends the bytes, half-closes and reads every reply until the daemon
/// closes or goes quiet).
///
/// One daemon lives for the whole process, so state carried from one input
/// to the next (documents, views, streams) is exercised too; its limits are
/// small so that no input can make a run slow. An input that starts with
/// ``tokenDaemonPrefix`` goes, without that line, to a second daemon that
/// requires the token `fuzz`: the small limits before AUTH, and AUTH
/// raising them in the middle of a read.
///
/// Not thread-safe: call from one thread (libFuzzer's, or a test's).
public enum Fuzzing {
    nonisolated(unsafe) private static var shared: Server?
    nonisolated(unsafe) private static var sharedWithToken: Server?

    /// The first line of an input for the daemon that requires `AUTH fuzz`.
    public static let tokenDaemonPrefix = Array("#token-daemon\n".utf8)

    private static func server(requiringToken: Bool) -> Server? {
        if let server = requiringToken ? sharedWithToken : shared { return server }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.inMemory = true
        configuration.maximumDocuments = 64
        configuration.maximumPayloadLength = 64 << 10
        configuration.maximumLineLength = 64 << 10
        configuration.outputHardLimit = 4 << 20
        configuration.logLevel = .error
        Log.minimumLevel = .error
        let environment = requiringToken ? ["LECTERN_AUTH_TOKEN": "fuzz"] : [:]
        guard let server = try? Server(configuration: configuration, environment: environment) else { return nil }
        server.start()
        if requiringToken { sharedWithToken = server } else { shared = server }
        return server
    }

    /// Runs one input through the daemon. Returns the reply bytes.
    @discardableResult
    public static func feed(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        let requiringToken = input.starts(with: tokenDaemonPrefix)
        let input = requiringToken ? UnsafeRawBufferPointer(rebasing: input[tokenDaemonPrefix.count...]) : input
        guard let server = server(requiringToken: requiringToken), let client = server.connectInProcess() else { return [] }
        var output: [UInt8] = []
        var sent = 0
        var halfClosed = false
        var quietTurns = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Bounded: at most this many loop turns per input.
        for _ in 0..<20_000 {
            if sent < input.count, let base = input.baseAddress {
                let n = write(client, base + sent, input.count - sent)
                if n > 0 { sent += n }
            } else if !halfClosed {
                shutdown(client, Int32(SHUT_WR))
                halfClosed = true
            }
            uv_run(server.loop, UV_RUN_NOWAIT)
            let n = read(client, &buffer, buffer.count)
            if n > 0 {
                output.append(contentsOf: buffer[0..<n])
                quietTurns = 0
            } else if n == 0 {
                break  // the daemon closed its end
            } else {
                quietTurns += 1
                // Streams or deferred work may still be running; give up
                // after a while of silence once everything was sent.
                if halfClosed && quietTurns > 200 { break }
                if quietTurns > 2 { usleep(50) }
            }
        }
        close(client)
        uv_run(server.loop, UV_RUN_NOWAIT)
        return output
    }
}
