// ClusterTests.swift: lecternd --redis, three nodes and a real redis-server
// (appendonly yes, appendfsync always), each node its own process.

import Foundation
import Testing

/// Three nodes of one document space.
private final class Cluster {
    let redis: RedisProcess
    var nodes: [Daemon]

    init(nodes count: Int = 3) throws {
        let redis = try RedisProcess()
        self.redis = redis
        nodes = try (0..<count).map { index in
            try Daemon(["--redis", redis.url, "--node-name", "n\(index)"])
        }
        // Each node answers writes once both its Redis connections are up.
        for node in nodes { try Cluster.waitUntilWritable(node) }
    }

    /// Waits (at most 10 s) until a node's STATS says Redis is reachable.
    static func waitUntilWritable(_ node: Daemon) throws {
        let client = try node.connect()
        for _ in 0..<400 {
            if try client.request("STATS").contains("* store_unavailable 0") { return }
            usleep(25_000)
        }
        throw LineClient.Failure(description: "the node never reached Redis: \(node.log)")
    }
}

/// Reads lines until one starts with `prefix` (other events and replies
/// are skipped); fails after `limit` lines.
private func line(startingWith prefix: String, from client: LineClient, limit: Int = 50) throws -> String {
    for _ in 0..<limit {
        guard let line = try client.readLine() else { break }
        if line.hasPrefix(prefix) { return line }
    }
    throw LineClient.Failure(description: "no line starting with \(prefix)")
}

/// The reply to `request` once `done` holds for it: another node's write
/// reaches a node's cache when Redis delivers its CHANGED or DELETED, a
/// moment after the writer's acknowledgement. At most 200 tries, 10 ms apart.
private func eventually(_ client: LineClient, _ request: String, _ done: ([String]) -> Bool) throws -> [String] {
    var reply: [String] = []
    for _ in 0..<200 {
        reply = try client.request(request)
        if done(reply) { return reply }
        usleep(10_000)
    }
    return reply
}

@Suite(.serialized) struct ClusterTests {
    @Test func aDocumentPutOnOneNodeIsReadOnTheOthers() throws {
        let cluster = try Cluster()
        let a = try cluster.nodes[0].connect(), b = try cluster.nodes[1].connect(), c = try cluster.nodes[2].connect()
        let put = try a.request("PUT shared lang=en \"One sentence here. Another one there.\"").last!
        #expect(put.hasPrefix("OK PUT id=shared revision=1 "))
        for reader in [b, c] {
            let reply = try reader.request("GET shared")
            #expect(reply.dropFirst().first == "One sentence here. Another one there.")
            #expect(fields(reply.last!)["revision"] == "1")
            #expect(try reader.request("SENTENCES shared").last == "OK SENTENCES 2 of 2")
        }
        // In Redis, under the document's hash tag.
        #expect(cluster.redis.cli("HGET", "lectern:{shared}:doc", "text") == "One sentence here. Another one there.")
        #expect(cluster.redis.cli("HGET", "lectern:{shared}:doc", "revision") == "1")
        // LIST on a node that never saw it lists it; DEL anywhere deletes it everywhere.
        #expect(try c.request("LIST").first?.hasPrefix("* id=shared revision=1 ") == true)
        #expect(try b.request("DEL shared").last == "OK DEL id=shared")
        #expect(try eventually(a, "GET shared") { $0.last?.hasPrefix("ERR NODOC") == true }.last?.hasPrefix("ERR NODOC") == true)
        #expect(try c.request("LIST").last == "OK LIST 0")
    }

    @Test func aWatcherOnOneNodeGetsATapMadeOnAnotherInItsOwnView() throws {
        let cluster = try Cluster()
        let tapper = try cluster.nodes[2].connect(), watcher = try cluster.nodes[0].connect()
        let tapperID = try #require(fields(try tapper.request("HELLO").last!)["connection"])
        _ = try tapper.request("PUT read lang=en \"The first sentence is long enough to wrap at a narrow width. Then a second.\"")
        #expect(try watcher.request("VIEW read width=150").last?.hasPrefix("OK VIEW") == true)
        #expect(try watcher.request("WATCH read").last == "OK WATCH id=read watchers=1")
        // The watcher's own highlight of sentence 0, in its view.
        let own = try watcher.request("RECTS read 0").first { $0.hasPrefix("* rects ") }!.dropFirst("* rects ".count)
        #expect(try tapper.request("VIEW read width=500").last?.hasPrefix("OK VIEW") == true)
        // The WATCH announcement reaches the tapper's node through Redis: tap until an event comes.
        var event: String?
        for _ in 0..<40 where event == nil {
            _ = try tapper.request("TAP read 5 5")
            let lines = try watcher.request("PING")
            event = lines.first { $0.hasPrefix("! TAP") }
            if event == nil { usleep(50_000) }
        }
        let tap = try #require(event)
        #expect(tap.hasPrefix("! TAP read by=\(tapperID) node=n2 revision=1 sentence=0 range=0..60 "))
        #expect(fields(tap)["rects"] == String(own))
        // The tapper's own view is wider: its rects are not the watcher's.
        let tapperRects = try tapper.request("RECTS read 0").first { $0.hasPrefix("* rects ") }!.dropFirst("* rects ".count)
        #expect(tapperRects != own)
        // SELECT and CLEAR cross too; a PUT there is a CHANGED here, named by its node.
        #expect(try tapper.request("SELECT read 5 5").last == "OK SELECT added sentence=0 selected=1")
        let select = try line(startingWith: "! SELECT", from: watcher)
        #expect(select.hasPrefix("! SELECT read by=\(tapperID) node=n2 revision=1 added sentence=0 range=0..60 "))
        #expect(fields(select)["rects"] == String(own))
        _ = try tapper.request("CLEAR read")
        #expect(try line(startingWith: "! CLEAR", from: watcher) == "! CLEAR read by=\(tapperID) node=n2")
        _ = try tapper.request("PUT read lang=en \"Short now.\"")
        #expect(try line(startingWith: "! CHANGED", from: watcher) == "! CHANGED read by=\(tapperID) node=n2 revision=2 sentences=1")
        // …and the watcher's node serves the new text at once.
        #expect(try watcher.request("GET read").dropFirst().first == "Short now.")  // CHANGED came after the reload
    }

    @Test func concurrentPutsOnTwoNodesGetDistinctRevisionsAndTheLastTextWins() throws {
        let cluster = try Cluster(nodes: 2)
        _ = try cluster.nodes[0].connect().request("PUT race \"Start.\"")
        let rounds = 40
        let lock = NSLock()
        var acknowledged: [(revision: Int, text: String)] = []
        var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            guard let client = try? cluster.nodes[side].connect() else { return }
            for round in 0..<rounds {
                let text = "Node \(side) round \(round)."
                guard let reply = try? client.request("PUT race \"\(text)\"").last else { continue }
                lock.lock()
                if let revision = fields(reply)["revision"].flatMap(Int.init), reply.hasPrefix("OK PUT") {
                    acknowledged.append((revision, text))
                } else {
                    failures.append(reply)
                }
                lock.unlock()
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(acknowledged.count == 2 * rounds)
        #expect(Set(acknowledged.map(\.revision)).count == acknowledged.count, "two writes got one revision")
        let last = acknowledged.max { $0.revision < $1.revision }!
        #expect(last.revision == 2 * rounds + 1)
        for node in cluster.nodes {
            let reply = try eventually(try node.connect(), "GET race") { fields($0.last!)["revision"] == String(last.revision) }
            #expect(reply.dropFirst().first == last.text)
            #expect(fields(reply.last!)["revision"] == String(last.revision))
        }
    }

    @Test func moveBetweenDocumentsMadeOnDifferentNodes() throws {
        let cluster = try Cluster()
        let a = try cluster.nodes[0].connect(), b = try cluster.nodes[1].connect(), c = try cluster.nodes[2].connect()
        _ = try a.request("PUT source lang=en \"Keep this. Move this one. Keep that.\"")
        _ = try b.request("PUT notes lang=en \"Notes so far.\"")
        // On the third node, which has cached neither.
        #expect(try c.request("VIEW source width=300").last?.hasPrefix("OK VIEW") == true)
        #expect(try c.request("SELECT source 130 10").last == "OK SELECT added sentence=1 selected=1")
        let move = try c.request("MOVE source to=notes").last!
        #expect(move.hasPrefix("OK MOVE sentences=1 to=notes revision=2 source-revision=2"), "\(move)")
        let source = try eventually(a, "GET source") { fields($0.last!)["revision"] == "2" }
        #expect(source.dropFirst().first == "Keep this. Keep that.")
        #expect(try b.request("GET notes").dropFirst().dropLast().joined(separator: "\n") == "Notes so far.\nMove this one.")
        #expect(cluster.redis.cli("HGET", "lectern:{notes}:doc", "text") == "Notes so far.\nMove this one.")
    }
}
