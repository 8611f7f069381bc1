// DurableRevisionTests.swift: a document's revision is the store's, so an
// app caching by (id, revision) never sees one pair stand for two versions:
// not after a restart, not after DEL + PUT, not across MOVE and COPY
// (issue 18 item 4).

import Foundation
import Testing

@Suite(.serialized) struct DurableRevisionTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-revisions-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The `revision=` (or `key=`) value of a reply or event line.
    private func number(_ key: String, in line: String?) -> Int? {
        line?.split(separator: " ").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) }
    }

    private func revision(_ line: String?) -> Int? { number("revision", in: line) }

    @Test func aRestartKeepsEveryDocumentsRevision() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var before: [String: Int] = [:]
        var highest = 0
        do {
            let daemon = try Daemon(["--data-dir", directory.path])
            let client = try daemon.connect()
            for id in ["a", "b", "c"] {
                _ = try client.request("PUT \(id) \"First \(id). Second \(id).\"")
            }
            _ = try client.request("PUT b \"Edited b. Twice.\"")
            _ = try client.request("ATTACH c anim at=end 30 30")
            for id in ["a", "b", "c"] {
                let get = try client.request("GET \(id)").last
                before[id] = try #require(revision(get))
                highest = max(highest, before[id] ?? 0)
            }
            // Three documents, five writes: three different revisions.
            #expect(Set(before.values).count == 3)
            #expect(daemon.stop() == 0)
        }
        let daemon = try Daemon(["--data-dir", directory.path])
        let client = try daemon.connect()
        for id in ["a", "b", "c"] {
            #expect(revision(try client.request("GET \(id)").last) == before[id], "GET \(id)")
            #expect(revision(try client.request("VIEW \(id) width=300").last) == before[id], "VIEW \(id)")
        }
        let list = try client.request("LIST")
        #expect(list.dropLast().map { revision($0) } == ["a", "b", "c"].map { before[$0] })
        // An event after the restart names the revision the document had.
        let watcher = try daemon.connect()
        #expect(try watcher.request("WATCH a").last?.hasPrefix("OK WATCH") == true)
        _ = try client.request("TAP a 5 5")
        #expect(revision(try watcher.readLine()) == before["a"])
        // The next write takes a revision above every one before the restart.
        let put = try client.request("PUT d \"New after the restart.\"").last
        #expect(try #require(revision(put)) > highest)
        let edit = try client.request("PUT a \"Changed after the restart.\"").last
        #expect(try #require(revision(edit)) > highest)
    }

    @Test func delAndPutNeverReuseARevision() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        var seen: Set<Int> = []
        for round in 0..<3 {
            let put = try client.request("PUT d \"Round \(round). Again.\"").last
            let value = try #require(revision(put))
            #expect(seen.insert(value).inserted, "revision \(value) came back after DEL + PUT")
            #expect(try client.request("DEL d") == ["OK DEL id=d"])
        }
    }

    @Test func delAndPutAcrossARestartNeverReuseARevision() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first: Int
        do {
            let daemon = try Daemon(["--data-dir", directory.path])
            let client = try daemon.connect()
            first = try #require(revision(try client.request("PUT d \"One. Two.\"").last))
            #expect(try client.request("DEL d") == ["OK DEL id=d"])
            #expect(daemon.stop() == 0)
        }
        let daemon = try Daemon(["--data-dir", directory.path])
        let client = try daemon.connect()
        let again = try #require(revision(try client.request("PUT d \"One. Two.\"").last))
        #expect(again > first)
    }

    @Test func attachmentsMoveAndCopyTakeNewRevisionsThatGetReports() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        let put = try #require(revision(try client.request("PUT src \"One. Two. Three.\"").last))
        _ = try client.request("VIEW src width=300")
        let attach = try client.request("ATTACH src anim at=end 20 20").last
        let attached = try #require(revision(try client.request("GET src").last))
        #expect(attach?.hasPrefix("OK ATTACH") == true)
        #expect(attached > put)
        #expect(try client.request("DETACH src anim") == ["OK DETACH name=anim"])
        let detached = try #require(revision(try client.request("GET src").last))
        #expect(detached > attached)

        _ = try client.request("PUT dst \"Zero.\"")
        let dstBefore = try #require(revision(try client.request("GET dst").last))
        #expect(try client.selectSentence(1, of: "src")?.hasPrefix("OK SELECT added sentence=1") == true)
        let copy = try client.request("COPY src to=dst").last
        let copied = try #require(revision(copy))
        #expect(copied > dstBefore)
        #expect(revision(try client.request("GET dst").last) == copied)

        #expect(try client.selectSentence(0, of: "src")?.hasPrefix("OK SELECT added sentence=0") == true)
        let move = try client.request("MOVE src to=dst").last
        let moved = try #require(revision(move))
        let sourceMoved = try #require(number("source-revision", in: move))
        #expect(moved > copied && sourceMoved > detached && moved != sourceMoved)
        #expect(revision(try client.request("GET dst").last) == moved)
        #expect(revision(try client.request("GET src").last) == sourceMoved)
    }
}
