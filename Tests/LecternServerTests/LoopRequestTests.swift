// LoopRequestTests.swift: a libuv request holds its Swift context from submission
// until its final callback, and releases it exactly once (LoopRequest, the
// only use of Unmanaged for LecternServer's requests).

import CUV
import Glibc
import LecternUV
import Testing
@testable import LecternServer

@Suite struct LoopRequestTests {
    /// Something a request's closures capture, to see when they are released.
    private final class Tracked {}

    /// A loop of the test's own, run until it has nothing left to do.
    private func withLoop(_ body: (UnsafeMutablePointer<uv_loop_t>) throws -> Void) rethrows {
        let loop = LoopHandle.allocate(uv_loop_t.self)
        uv_loop_init(loop)
        defer {
            uv_run(loop, UV_RUN_DEFAULT)
            uv_loop_close(loop)
            free(loop)
        }
        try body(loop)
    }

    @Test func aRequestsContextIsTakenBackOnceAndOnlyOnce() {
        weak var weakContext: Tracked?
        let request = LoopHandle.allocate(uv_work_t.self)
        defer { free(request) }
        do {
            let context = Tracked()
            weakContext = context
            LoopRequest.retain(context, in: request)
        }
        // Held by the request alone; looking at it does not release it.
        #expect(LoopRequest.context(of: request, as: Tracked.self) != nil)
        #expect(weakContext != nil)
        #expect(LoopRequest.takeContext(of: request, as: Tracked.self) != nil)
        #expect(weakContext == nil)
        // A second take finds nothing: never released twice.
        #expect(LoopRequest.takeContext(of: request, as: Tracked.self) == nil)
        #expect(request.pointee.data == nil)
    }

    @Test func backgroundWorkRunsItsCompletionOnceThenReleasesTheJob() {
        weak var weakCaptured: Tracked?
        var completions = 0
        withLoop { loop in
            let captured = Tracked()
            weakCaptured = captured
            BackgroundWork.run(on: loop, { [captured] in ObjectIdentifier(captured).hashValue }, then: { [captured] value in
                #expect(value == ObjectIdentifier(captured).hashValue)
                completions += 1
            })
        }
        #expect(completions == 1)
        // The job (and the closures holding `captured`) went with the request.
        #expect(weakCaptured == nil)
    }

    @Test func aPendingWriteKeepsItsCompletionUntilLibuvIsDoneThenReleasesIt() throws {
        var sockets: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &sockets) == 0)
        defer { close(sockets[1]) }
        weak var weakCaptured: Tracked?
        var completions: [(Int, Int32)] = []
        withLoop { loop in
            let pipe = LoopHandle.allocate(uv_pipe_t.self)
            uv_pipe_init(loop, pipe, 0)
            uv_pipe_open(pipe, sockets[0])
            let captured = Tracked()
            weakCaptured = captured
            let bytes = Array("written through libuv\n".utf8)
            let status = PendingWrite.start(bytes[...], on: LoopHandle.stream(pipe)) { [captured] count, status in
                _ = captured
                completions.append((count, status))
                LoopHandle.close(pipe)
            }
            #expect(status == 0)
        }
        #expect(completions.count == 1)
        #expect(completions.first?.0 == 22 && completions.first?.1 == 0)
        #expect(weakCaptured == nil)
        var received = [UInt8](repeating: 0, count: 64)
        #expect(recv(sockets[1], &received, received.count, 0) == 22)
    }
}
