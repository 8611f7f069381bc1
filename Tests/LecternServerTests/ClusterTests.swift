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

    static func waitUntilWritable(_ node: Daemon) throws { try LecternServerTests.waitUntilWritable(node) }
}

/// Waits (at most 10 s) until a node's STATS says Redis is reachable.
func waitUntilWritable(_ node: Daemon) throws {
    let client = try node.connect()
    for _ in 0..<400 {
        if try client.request("STATS").contains("* store_unavailable 0") { return }
        usleep(25_000)
    }
    throw LineClient.Failure(description: "the node never reached Redis: \(node.log)")
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
        // WATCH answered once Redis had passed the announcement on: the
        // tapper's node publishes the very next tap.
        _ = try tapper.request("TAP read 5 5")
        let event: String? = try line(startingWith: "! TAP", from: watcher)
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

    /// Anything can be published on a document's channel: what is not a
    /// well-formed event of a sentence as the node has it is ignored.
    @Test func foreignMessagesOnADocumentsChannelAreIgnored() throws {
        let cluster = try Cluster(nodes: 1)
        let watcher = try cluster.nodes[0].connect()
        _ = try watcher.request("PUT chan lang=en \"One here. Two there.\"")
        _ = try watcher.request("VIEW chan width=300")
        _ = try watcher.request("WATCH chan")
        let channel = "lectern:{chan}:events"
        for message in [
            "", "TAP", "TAP 0 x 1 2 0 0 9", "TAP 0 x 1 1 99 0 9", "TAP 0 x 1 1 0 9 0", "TAP 0 x 1 1 0 0 10 extra",
            "TAP 0 x 1 -1 0 0 9", "TAP 0 x 1 999999999999999999999 0 0 9", "SELECT 0 x 1 1 maybe 0 0 9",
            "CHANGED 0 x 1 notanumber", "DELETED 1 x 1 99", String(repeating: "A", count: 100_000), "TAP 0 x 1 1 1 10 19",
            "\u{FF}\u{FE} TAP", "WATCHING 0 x 0 0",
        ] {
            _ = cluster.redis.cli("PUBLISH", channel, message)
        }
        // One well-formed event from another node: the only one the watcher gets.
        _ = cluster.redis.cli("PUBLISH", channel, "TAP 0 other 9 1 0 0 9")
        let event = try line(startingWith: "! ", from: watcher)
        #expect(event.hasPrefix("! TAP chan by=9 node=other revision=1 sentence=0 range=0..9 rects="))
        #expect(try watcher.request("GET chan").dropFirst().first == "One here. Two there.")
        #expect(try watcher.request("PING").last == "OK PONG")
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

/// Writes and what came of them, per document: after the last
/// acknowledged text, a write whose reply never came (the node died) or
/// said "may or may not have been applied" (Redis went during it) may be
/// in Redis too; nothing older may.
private struct WriteLedger {
    private(set) var acknowledged: [String: String] = [:]
    private var uncertain: [String: [String]] = [:]
    private(set) var acknowledgements = 0
    private(set) var refusals = 0

    mutating func record(_ id: String, _ text: String, reply: String?) {
        if let reply, reply.hasPrefix("OK PUT") {
            acknowledged[id] = text
            uncertain[id] = []
            acknowledgements += 1
        } else if let reply, reply.contains("nothing was written") {
            refusals += 1
        } else {
            uncertain[id, default: []].append(text)
        }
    }

    /// What Redis may hold for `id`.
    func allowed(_ id: String) -> Set<String> {
        Set((acknowledged[id].map { [$0] } ?? []) + (uncertain[id] ?? []))
    }
}

/// The failure cases of issue 20: Redis away at start-up, Redis stopping
/// and coming back, a node killed while it is written through.
@Suite(.serialized) struct ClusterFailureTests {
    @Test func aNodeStartsWithoutRedisSaysSoAndServesOnceRedisComes() throws {
        let port = try RedisProcess.freePort()
        let node = try Daemon(["--redis", "redis://127.0.0.1:\(port)"])
        let client = try node.connect()
        let refused = try client.request("PUT early \"Too soon.\"").last!
        // Not cached here and Redis cannot be asked: UNAVAILABLE, not NODOC.
        #expect(refused.hasPrefix("ERR UNAVAILABLE 'early' is not cached on this node and Redis at redis://127.0.0.1:\(port) cannot be reached"), "\(refused)")
        #expect(try client.request("GET early").last?.hasPrefix("ERR UNAVAILABLE 'early' is not cached on this node") == true)
        #expect(node.log.contains("event=redis_unreachable"))
        #expect(node.log.contains("retry_ms="))
        // Redis comes up on that port: the node connects by itself.
        let redis = try RedisProcess(port: port)
        try Cluster.waitUntilWritable(node)
        #expect(try client.request("PUT early \"Now.\"").last?.hasPrefix("OK PUT id=early revision=1") == true)
        #expect(redis.cli("HGET", "lectern:{early}:doc", "text") == "Now.")
        #expect(node.log.contains("event=redis_connected"))
    }

    @Test func redisRequiredExitsWhenRedisIsAway() throws {
        let port = try RedisProcess.freePort()
        #expect(throws: Daemon.StartFailure.self) {
            try Daemon(["--redis", "redis://127.0.0.1:\(port)", "--redis-required"])
        }
        // The reason, as the operator sees it on standard error.
        let (status, log) = try Daemon.failedStart(["--port", "0", "--redis", "redis://127.0.0.1:\(port)", "--redis-required"])
        #expect(status == 1)
        #expect(log.contains("event=start_failed"))
        #expect(log.contains("Redis at redis://127.0.0.1:\(port) cannot be reached"))
        #expect(log.contains("--redis-required"))
    }

    @Test func whileRedisIsDownWritesFailAndCachedReadsWorkAndNoAcknowledgedWriteIsLost() throws {
        let cluster = try Cluster(nodes: 2)
        let a = try cluster.nodes[0].connect(), b = try cluster.nodes[1].connect()
        // Writes through node A while Redis is killed (-9) and started again,
        // in rounds; every acknowledged one must be in Redis afterwards.
        var ledger = WriteLedger()
        let rounds = 3, writesPerRound = 60
        for round in 0..<rounds {
            let killer = DispatchQueue(label: "kill")
            killer.asyncAfter(deadline: .now() + .milliseconds(30)) { cluster.redis.kill() }
            for index in 0..<writesPerRound {
                let id = "doc\(index % 20)"
                let text = "Round \(round) write \(index)."
                let reply = try a.request("PUT \(id) \"\(text)\"").last!
                #expect(reply.hasPrefix("OK PUT") || reply.hasPrefix("ERR UNAVAILABLE"), "\(reply)")
                ledger.record(id, text, reply: reply)
            }
            killer.sync {}
            // Down: cached documents are still read, uncached ones and LIST say why not.
            if let (id, text) = ledger.acknowledged.first, ledger.allowed(id).count == 1 {
                #expect(try a.request("GET \(id)").dropFirst().first == text)
            }
            #expect(try a.request("GET never-written").last?.hasPrefix("ERR UNAVAILABLE") == true)
            #expect(try a.request("LIST").last?.hasPrefix("ERR UNAVAILABLE") == true)
            #expect(try a.request("PUT down \"No.\"").last?.hasPrefix("ERR UNAVAILABLE") == true)
            try cluster.redis.start()
            for node in cluster.nodes { try Cluster.waitUntilWritable(node) }
        }
        #expect(ledger.refusals > 0, "Redis was never down during a write")
        #expect(ledger.acknowledged.count == 20)
        for id in ledger.acknowledged.keys {
            let stored = cluster.redis.cli("HGET", "lectern:{\(id)}:doc", "text")
            #expect(ledger.allowed(id).contains(stored), "\(id) holds \(stored), not its last acknowledged text")
            let read = try eventually(b, "GET \(id)") { $0.dropFirst().first == stored }
            #expect(read.dropFirst().first == stored)
        }
        print("redis-restart: \(rounds) rounds, \(ledger.acknowledged.count) documents, \(ledger.acknowledgements) acknowledged writes, \(ledger.refusals) refused (ERR UNAVAILABLE), 0 lost")
    }

    @Test func aNodeCutOffWhileAnotherWritesDropsItsOlderCacheOnReconnecting() throws {
        let cluster = try Cluster(nodes: 2)
        let a = try cluster.nodes[0].connect(), b = try cluster.nodes[1].connect()
        _ = try a.request("PUT kept \"First text.\"")
        #expect(try b.request("GET kept").dropFirst().first == "First text.")
        _ = try b.request("VIEW kept width=300")
        _ = try b.request("WATCH kept")
        // B sleeps through a Redis restart and a write: it misses the CHANGED.
        let paused = cluster.nodes[1].process.processIdentifier
        kill(paused, SIGSTOP)
        cluster.redis.kill()
        try cluster.redis.start()
        try Cluster.waitUntilWritable(cluster.nodes[0])
        #expect(try a.request("PUT kept \"Second text.\"").last?.hasPrefix("OK PUT id=kept revision=2") == true)
        kill(paused, SIGCONT)
        // On reconnecting, B compares its cache with Redis: its watcher hears of it.
        let changed = try line(startingWith: "! CHANGED", from: b)
        #expect(changed == "! CHANGED kept by=0 node=redis revision=2 sentences=1")
        #expect(try b.request("GET kept").dropFirst().first == "Second text.")
    }

    @Test func aNodeKilledWhileWrittenThroughLosesNoAcknowledgedWrite() throws {
        let cluster = try Cluster(nodes: 2)
        var ledger = WriteLedger()
        var sent = 0
        let rounds = 3
        for round in 0..<rounds {
            let client = try cluster.nodes[0].connect()
            let killer = DispatchQueue(label: "kill")
            let node = cluster.nodes[0]
            killer.asyncAfter(deadline: .now() + .milliseconds(300)) { kill(node.process.processIdentifier, SIGKILL) }
            writing: for index in 0..<100_000 {
                let id = "k\(index % 10)"
                let text = "Round \(round) put \(index)."
                sent += 1
                guard client.sendLine("PUT \(id) \"\(text)\"") else { break writing }
                let reply = try? client.readReply().last
                ledger.record(id, text, reply: reply)
                if reply == nil { break writing }
            }
            killer.sync {}
            // A new node takes the dead one's place, on the same Redis.
            cluster.nodes[0] = try Daemon(["--redis", cluster.redis.url, "--node-name", "n0-\(round + 1)"])
            try Cluster.waitUntilWritable(cluster.nodes[0])
        }
        #expect(ledger.acknowledged.count == 10)
        let reader = try cluster.nodes[1].connect()
        for id in ledger.acknowledged.keys {
            // Byte for byte in Redis, and as the surviving node reads it.
            let stored = cluster.redis.cli("HGET", "lectern:{\(id)}:doc", "text")
            #expect(ledger.allowed(id).contains(stored), "\(id) holds \(stored), not its last acknowledged text")
            let read = try eventually(reader, "GET \(id)") { $0.dropFirst().first == stored }
            #expect(read.dropFirst().first == stored)
        }
        print("node-kill: \(rounds) rounds, \(sent) PUTs sent, \(ledger.acknowledgements) acknowledged, \(ledger.acknowledged.count) documents checked at their last acknowledged text, 0 lost")
    }
}
