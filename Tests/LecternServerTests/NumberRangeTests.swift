// NumberRangeTests.swift: every number a command takes is range-checked
// where it is read, and nothing stored before that can crash RENDER.

import Foundation
import LecternStore
import Testing

@Suite struct NumberRangeTests {
    /// Requests with a number outside its range, each answered `ERR NUMBER`
    /// with the range in the sentence, the connection kept.
    static let outOfRange: [String] = [
        "ATTACH a f at=end 10 10 1e20",
        "ATTACH a f at=end 10 10 -1e20",
        "ATTACH a f at=end 1e20 10",
        "ATTACH a f at=end 10 -1",
        "ATTACH a f at=end 10 10 nan",
        "ATTACH a f at=end inf 10",
        "TAP a 1e20 10",
        "TAP a 10 -1e20",
        "TAP a 10 10 slop=-1",
        "TAP a 10 10 slop=1e300",
        "SELECT a 1e10 0",
        "SELECT a 0 0 slop=inf",
        "VIEW a width=1e308",
        "VIEW a width=0",
        "VIEW a width=200 size=nan",
        "VIEW a width=200 size=1e-300",
        "VIEW a width=200 line-height=1e300x",
        "VIEW a width=200 line-height=-5",
        "VIEW a width=200 paragraph-spacing=1e20",
        "VIEW a width=200 insets=1,inf",
        "TYPE a interval=0",
        "TYPE a interval=inf",
        "TYPE a cps=1e9",
        "TYPE a sentence-pause=-1",
    ]

    @Test func outOfRangeNumbersAreRefusedWithTheirRange() throws {
        let daemon = try Daemon(["--log-level", "error"])
        let client = try daemon.connect()
        #expect(try client.request("PUT a \"One sentence. Another one.\"").last?.hasPrefix("OK PUT") == true)
        #expect(try client.request("VIEW a width=200").last?.hasPrefix("OK VIEW") == true)
        for request in Self.outOfRange {
            let reply = try client.request(request)
            #expect(reply.count == 1, "\(request): \(reply)")
            #expect(reply.last?.hasPrefix("ERR NUMBER ") == true, "\(request): \(reply)")
            #expect(reply.last.map { $0.contains(" from ") || $0.contains(" above ") } == true, "\(request) gives no range: \(reply)")
        }
        // Nothing was attached, and the view draws.
        #expect(try client.request("GET a").last?.contains("attachments=0") == true)
        #expect(try client.request("RENDER a").last?.hasPrefix("OK RENDER") == true)
        // The limits themselves are accepted.
        #expect(try client.request("ATTACH a f at=end 10000 0 -10000").last?.hasPrefix("OK ATTACH") == true)
        #expect(try client.request("TAP a 1000000000 -1000000000 slop=10000").last?.hasPrefix("OK TAP") == true)
        #expect(try client.request("RENDER a").last?.hasPrefix("OK RENDER") == true)
    }

    /// An attachment stored with a baseline of 1e20 (as a daemon without
    /// the range check accepted) once made RENDER trap after every restart.
    @Test func aStoredOutOfRangeAttachmentDoesNotCrashRender() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-numbers-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try SQLiteDocumentStore(directory: directory.path)
            let attachment = AttachmentRecord(
                name: "f", utf16Offset: 0, width: 10, height: 1e300, baseline: 1e20, followsTextEnd: true)
            _ = try store.put(DocumentRecord(
                id: "a", text: Array("One sentence. Another one.".utf8), language: nil,
                segmentation: "reader", attachments: [attachment]))
        }
        let daemon = try Daemon(["--data-dir", directory.path])
        let client = try daemon.connect()
        #expect(try client.request("VIEW a width=200").last?.hasPrefix("OK VIEW") == true)
        let render = try client.request("RENDER a")
        #expect(render.last?.hasPrefix("OK RENDER") == true)
        #expect(try client.request("PING") == ["OK PONG"])
        #expect(daemon.log.contains("store_attachment_out_of_range"))
    }
}
