// BackgroundWork.swift: running slow work on libuv's thread pool.

import CUV
import LecternUV
import Glibc

/// Work that could hold the loop for more than about a millisecond (laying
/// out a large document, a store write) runs on libuv's thread pool with
/// `uv_queue_work`; its result is applied back on the loop thread.
///
/// `work` runs on a pool thread: it must touch only what it captured, and
/// what it captured must not be used by the loop thread meanwhile (pass
/// immutable values in, get a value out). `then` runs on the loop thread.
/// libuv runs `then` with `UV_ECANCELED` instead of running `work` only if
/// the request is cancelled, which Lectern never does.
enum BackgroundWork {
    private final class Job {
        let work: () -> Any
        let then: (Any) -> Void
        var result: Any = ()
        init(work: @escaping () -> Any, then: @escaping (Any) -> Void) {
            self.work = work
            self.then = then
        }
    }

    /// How much lower than the loop thread pool threads run (`nice`): on a
    /// machine with fewer cores than the pool has threads (libuv starts
    /// four), laying out forty views at once would otherwise take the
    /// loop's core in turn, and every reader's PING would wait for the
    /// scheduler. At 10, the kernel gives a runnable loop thread about nine
    /// tenths of a contended core.
    static let poolNiceness: Int32 = 10

    /// Lowers the calling pool thread's priority to ``poolNiceness`` (Linux
    /// sets `nice` per thread). Idempotent; a failure only means no change.
    static func yieldToTheLoop() {
        let thread = id_t(truncatingIfNeeded: lectern_thread_id())
        if getpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread) < poolNiceness {
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, poolNiceness)
        }
    }

    /// Queues `work` on the pool; `then(result)` runs on the loop thread.
    static func run<T>(on loop: UnsafeMutablePointer<uv_loop_t>, _ work: @escaping () -> T, then: @escaping (T) -> Void) {
        let job = Job(work: { work() }, then: { result in
            if let value = result as? T { then(value) }
        })
        let request = LoopHandle.allocate(uv_work_t.self)
        LoopRequest.retain(job, in: request)
        let status = uv_queue_work(
            loop, request,
            { request in
                guard let request, let job = LoopRequest.context(of: request, as: Job.self) else { return }
                BackgroundWork.yieldToTheLoop()
                job.result = job.work()
            },
            { request, _ in
                guard let request else { return }
                if let job = LoopRequest.takeContext(of: request, as: Job.self) { job.then(job.result) }
                free(request)
            })
        if status != 0 {
            // The pool refused (it never does for a valid loop): run inline
            // rather than lose the work.
            _ = LoopRequest.takeContext(of: request, as: Job.self)
            free(request)
            job.then(job.work())
        }
    }
}
