// PipeliningTests.swift: many requests in flight on one connection, against a live daemon.

import Testing
@testable import LecternClient

@Suite struct PipeliningTests {
    /// 1,000 requests from 1,000 tasks at once, of different kinds (so that
    /// replies have different lengths and data lines): each caller gets the
    /// reply that answers its own request.
    @Test func thousandConcurrentRequestsGetTheirOwnReplies() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        for n in 0..<10 {
            try await lectern.put("doc\(n)", text: String(repeating: "Sentence \(n). ", count: n + 1))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in 0..<1_000 {
                group.addTask { try await Self.check(request: request, on: lectern) }
            }
            try await group.waitForAll()
        }
        #expect(try await lectern.stats().commandsProcessed >= 1_010)
    }

    /// Request number `request`, one of four kinds, and its expected reply.
    static func check(request: Int, on lectern: LecternConnection) async throws {
        let n = request % 10
        switch request % 4 {
        case 0:
            let echo = try await lectern.ping("request \(request) \"quoted\"")
            #expect(echo == "request \(request) \"quoted\"")
        case 1:
            let total = try await lectern.sentences(of: "doc\(n)").total
            #expect(total == n + 1)
        case 2:
            let text = try await lectern.get("doc\(n)").text
            #expect(text == String(repeating: "Sentence \(n). ", count: n + 1))
        default:
            await #expect(throws: LecternError.server(code: .noDocument, message: "no document 'missing\(request)' (LIST shows the documents)")) {
                try await lectern.get("missing\(request)")
            }
        }
    }

    /// Sequential issue, concurrent wait: 1,000 requests are written before
    /// the first reply is awaited, and resolve in any order.
    @Test func thousandRequestsWrittenBeforeAnyReplyIsRead() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        var tasks: [Task<String, Error>] = []
        for request in 0..<1_000 {
            tasks.append(Task { try await lectern.ping("#\(request)") })
        }
        for (request, task) in tasks.enumerated().reversed() {
            #expect(try await task.value == "#\(request)")
        }
    }

    /// A caller that stops waiting does not disturb the others: its reply
    /// is dropped when it comes.
    @Test func cancelledRequestsDoNotShiftReplies() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("big", text: String(repeating: "A sentence to lay out. ", count: 2_000))
        let slow = Task { try await lectern.view("big", ViewOptions(width: 120)) }
        slow.cancel()
        _ = await slow.result
        for n in 0..<50 { #expect(try await lectern.ping("after \(n)") == "after \(n)") }
    }
}
