// RedisConnectionTests.swift: LecternRedis against a real redis-server on a
// free loopback port, driven by a real libuv loop.
import CUV
import Foundation
import LecternRedis
import Testing

/// A redis-server of its own (no persistence) on a free loopback port.
final class RedisServer {
    let port: Int
    private let process = Process()

    init() throws {
        port = try Self.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--daemonize", "no", "--loglevel", "warning"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready when it accepts a connection: at most 200 tries, 25 ms apart.
        for _ in 0..<200 where !Self.accepts(port) { usleep(25_000) }
    }

    /// Stops the server at once (SIGKILL: the test process's children may
    /// inherit a mask that blocks SIGTERM, and nothing here is persisted).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// A libuv loop of the test's own, run until a condition holds: one loop
/// turn at a time, woken at least every 20 ms by a timer, at most 1,500
/// turns (30 s), so that a test that waits for something that never comes
/// fails instead of hanging.
final class TestLoop {
    let loop: UnsafeMutablePointer<uv_loop_t>
    private let timer: UnsafeMutablePointer<uv_timer_t>

    init() {
        loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        uv_loop_init(loop)
        timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
        uv_timer_init(loop, timer)
        uv_timer_start(timer, { _ in }, 20, 20)
    }

    /// Runs the loop until `done()`; false if it never became true.
    @discardableResult
    func run(until done: () -> Bool) -> Bool {
        for _ in 0..<1_500 {
            if done() { return true }
            uv_run(loop, UV_RUN_ONCE)
        }
        return done()
    }

    deinit {
        uv_timer_stop(timer)
        uv_close(UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self), nil)
        for _ in 0..<100 where uv_loop_alive(loop) != 0 { uv_run(loop, UV_RUN_NOWAIT) }
        uv_loop_close(loop)
        timer.deallocate()
        loop.deallocate()
    }
}

@Suite(.serialized) struct RedisConnectionTests {
    @Test func commandsRoundTripWithBinarySafeValues() throws {
        let server = try RedisServer()
        let loop = TestLoop()
        var connected: String?? = .none
        let redis = RedisConnection(loop: loop.loop, host: "127.0.0.1", port: server.port,
                                    onConnect: { connected = .some($0) })
        var replies: [RedisReply] = []
        let value: [UInt8] = [0x00, 0x0D, 0x0A, 0xFF] + Array("§ 한국어".utf8)
        redis.send([Array("SET".utf8), Array("k".utf8), value]) { replies.append($0) }
        redis.send(["GET", "k"]) { replies.append($0) }
        redis.send(["GET", "missing"]) { replies.append($0) }
        redis.send(["INCRBY", "n", "41"]) { replies.append($0) }
        redis.send(["RPUSH", "list", "a", "b"]) { replies.append($0) }
        redis.send(["LRANGE", "list", "0", "-1"]) { replies.append($0) }
        redis.send(["NOSUCHCOMMAND"]) { replies.append($0) }
        #expect(loop.run { replies.count == 7 })
        #expect(connected == .some(nil))
        #expect(replies[0] == .status("OK"))
        #expect(replies[1] == .bulk(value))
        #expect(replies[2] == .null)
        #expect(replies[3] == .integer(41))
        #expect(replies[4] == .integer(2))
        #expect(replies[5] == .array([.bulk(Array("a".utf8)), .bulk(Array("b".utf8))]))
        guard case .error(let message) = replies[6] else { Issue.record("not an error: \(replies[6])"); return }
        #expect(message.contains("unknown command"))
        #expect(redis.isOpen)
    }

    @Test func aServerThatIsNotThereFailsTheConnectAndEveryCommandOnce() throws {
        let server = try RedisServer()
        let port = server.port
        server.stop()
        let loop = TestLoop()
        var connectResults: [String?] = []
        let redis = RedisConnection(loop: loop.loop, host: "127.0.0.1", port: port,
                                    onConnect: { connectResults.append($0) })
        var replies: [RedisReply] = []
        redis.send(["PING"]) { replies.append($0) }
        #expect(loop.run { !connectResults.isEmpty && !replies.isEmpty })
        // A few more turns: nothing is called twice.
        for _ in 0..<5 { uv_run(loop.loop, UV_RUN_NOWAIT) }
        #expect(connectResults.count == 1)
        // hiredis's own sentence, readable: a log line can say why.
        let why = connectResults.first.flatMap { $0 } ?? ""
        #expect(why.contains("refused"), "connect failure: \(why)")
        #expect(replies.count == 1)
        if case .disconnected = replies.first {} else { Issue.record("expected disconnected, got \(replies)") }
        #expect(!redis.isOpen)
        var late: [RedisReply] = []
        redis.send(["PING"]) { late.append($0) }
        #expect(late.count == 1)
    }

    @Test func aServerThatStopsClosesTheConnectionAndAnswersWhatIsPending() throws {
        let server = try RedisServer()
        let loop = TestLoop()
        var connected = false
        var closed: [String?] = []
        let redis = RedisConnection(loop: loop.loop, host: "127.0.0.1", port: server.port,
                                    onConnect: { connected = $0 == nil }, onClose: { closed.append($0) })
        #expect(loop.run { connected })
        server.stop()
        var replies: [RedisReply] = []
        redis.send(["PING"]) { replies.append($0) }
        #expect(loop.run { !closed.isEmpty && !replies.isEmpty })
        for _ in 0..<5 { uv_run(loop.loop, UV_RUN_NOWAIT) }
        #expect(closed.count == 1)
        #expect(closed.first.flatMap { $0 } != nil)
        #expect(replies.count == 1)
        #expect(!redis.isOpen)
    }

    /// The connection keeps itself alive while hiredis holds it: a user
    /// that drops its reference mid-command still gets every callback.
    @Test func droppingTheConnectionWhileACommandIsInFlightStillAnswersIt() throws {
        let server = try RedisServer()
        let loop = TestLoop()
        var replies: [RedisReply] = []
        weak var weakRedis: RedisConnection?
        do {
            let redis = RedisConnection(loop: loop.loop, host: "127.0.0.1", port: server.port, onConnect: { _ in })
            weakRedis = redis
            redis.send(["SET", "a", "1"]) { replies.append($0) }
            redis.send(["GET", "a"]) { replies.append($0) }
        }
        #expect(loop.run { replies.count == 2 })
        #expect(replies == [.status("OK"), .bulk(Array("1".utf8))])
        weakRedis?.close()
        #expect(loop.run { weakRedis == nil })
    }

    @Test func closeAnswersWhatWasSentAndThenCloses() throws {
        let server = try RedisServer()
        let loop = TestLoop()
        var closed: [String?] = []
        let redis = RedisConnection(loop: loop.loop, host: "127.0.0.1", port: server.port,
                                    onConnect: { _ in }, onClose: { closed.append($0) })
        var replies: [RedisReply] = []
        redis.send(["SET", "b", "2"]) { replies.append($0) }
        #expect(loop.run { redis.isOpen })
        redis.send(["GET", "b"]) { replies.append($0) }
        redis.close()
        #expect(loop.run { !closed.isEmpty })
        #expect(replies == [.status("OK"), .bulk(Array("2".utf8))])
        #expect(closed == [nil])
        var late: [RedisReply] = []
        redis.send(["PING"]) { late.append($0) }
        #expect(late.count == 1)
    }

    /// A subscription's callback runs for every message, long after the
    /// command that made it (hiredis keeps it, with no privdata to free),
    /// and a connection whose user dropped it, then the server, goes
    /// cleanly: every message before is delivered once, nothing after.
    @Test func aSubscriptionDeliversEveryMessageAndEndsWithItsConnection() throws {
        let server = try RedisServer()
        let loop = TestLoop()
        var confirmed = 0
        var messages: [(String, String)] = []
        weak var weakSubscriber: RedisConnection?
        var closed: [String?] = []
        do {
            let subscriber = RedisConnection(loop: loop.loop, host: "127.0.0.1", port: server.port,
                                             onConnect: { _ in }, onClose: { closed.append($0) })
            weakSubscriber = subscriber
            subscriber.subscribe(pattern: "news:*", confirmed: { confirmed += 1 }, message: { channel, payload in
                messages.append((String(decoding: channel, as: UTF8.self), String(decoding: payload, as: UTF8.self)))
            })
        }
        #expect(loop.run { confirmed == 1 })
        let publisher = RedisConnection(loop: loop.loop, host: "127.0.0.1", port: server.port, onConnect: { _ in })
        var receivers: [RedisReply] = []
        for index in 0..<100 {
            publisher.send(["PUBLISH", "news:\(index % 3)", "item \(index)"]) { receivers.append($0) }
        }
        publisher.send(["PUBLISH", "other", "not for it"]) { receivers.append($0) }
        #expect(loop.run { messages.count == 100 && receivers.count == 101 })
        #expect(messages.map(\.1) == (0..<100).map { "item \($0)" })
        #expect(messages[4].0 == "news:1")
        #expect(receivers.prefix(100).allSatisfy { $0 == .integer(1) } && receivers.last == .integer(0))
        // The server goes: the subscription ends with its connection, once.
        server.stop()
        #expect(loop.run { !closed.isEmpty && weakSubscriber == nil })
        for _ in 0..<5 { uv_run(loop.loop, UV_RUN_NOWAIT) }
        #expect(closed.count == 1 && messages.count == 100 && confirmed == 1)
    }
}
