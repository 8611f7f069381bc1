// Abusers.swift: the three kinds of abusing connection the abuses are made of.

import Foundation

/// Where the daemon is and how to get in.
struct AbuseTarget: Sendable {
    var port: UInt16
    /// The daemon's AUTH token, if it has one.
    var token: String?
    /// Its process, for its resident memory (nil: not measured).
    var pid: Int32?
}

extension AbuseSocket {
    /// Connects, greets (HELLO, for the connection's number in the
    /// daemon's logs) and, if `authenticate`, sends AUTH.
    static func greeted(_ target: AbuseTarget, authenticate: Bool, receiveBuffer: Int32? = nil, deadline: Double) throws -> (AbuseSocket, Int?) {
        let socket = try AbuseSocket(port: target.port, receiveBuffer: receiveBuffer)
        let hello = try socket.request("HELLO", deadline: deadline)
        let number = hello.split(separator: " ").first { $0.hasPrefix("connection=") }
            .flatMap { Int($0.dropFirst("connection=".count)) }
        if authenticate, let token = target.token {
            let reply = try socket.request("AUTH \(quoted(token))", deadline: deadline)
            guard reply.hasPrefix("OK") else { throw Failure(description: "AUTH was refused: \(reply)") }
        }
        return (socket, number)
    }

    /// `text` as a protocol quoted string.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Sends `line`; throws unless its reply's final line contains `expected`.
    func expect(_ line: String, contains expected: String = "OK", deadline: Double) throws {
        let reply = try request(line, deadline: deadline)
        guard reply.contains(expected) else {
            throw Failure(description: "'\(line.prefix(80))' answered '\(reply.prefix(200))', expected '\(expected)'")
        }
    }

    /// PUT of exact bytes, as a literal.
    func put(_ id: String, _ text: [UInt8], deadline: Double) throws {
        guard send(Array("PUT \(id) {\(text.count)}\n".utf8) + text + [0x0A], deadline: deadline) == .sent,
            let reply = readReply(deadline: deadline)?.last, reply.hasPrefix("OK PUT")
        else { throw Failure(description: "PUT \(id) of \(text.count) bytes failed") }
    }
}

/// A connection that sends a run of requests (`payload`, from its own
/// thread) and reads none of the replies while the abuse lasts. At the
/// end it sends a tagged PING and reads everything up to that PING's
/// reply: served if it comes, dropped if the daemon closed the connection.
final class PipelinedAbuser: @unchecked Sendable {
    static let endTag = "@abuse-end"
    let socket: AbuseSocket
    let connection: Int?
    let role: String
    private let payload: [UInt8]
    private let finishing = DispatchSemaphore(value: 0)
    private let cancelled = Flag()
    private var worker: Worker?

    /// - Parameters:
    ///   - setup: requests sent and answered first (the reply's final line
    ///     must contain the string given with it).
    init(_ target: AbuseTarget, role: String, authenticate: Bool = true, setup: [(String, String)] = [], payload: [UInt8], deadline: Double) throws {
        (socket, connection) = try AbuseSocket.greeted(target, authenticate: authenticate, receiveBuffer: 32 << 10, deadline: deadline)
        for (line, expected) in setup { try socket.expect(line, contains: expected, deadline: deadline) }
        self.role = role
        self.payload = payload
    }

    /// Starts sending the payload; it may block (a daemon that stops
    /// reading a client that does not read is doing its job) until
    /// ``finish(deadline:)`` reads, or until `deadline`.
    func start(deadline: Double) {
        let (socket, payload, finishing, cancelled) = (socket, payload, finishing, cancelled)
        worker = Worker {
            guard socket.send(payload, deadline: deadline, isCancelled: { cancelled.isSet }) == .sent else { return }
            _ = finishing.wait(timeout: .now() + max(0, deadline - Monotonic.now()))
            guard !cancelled.isSet else { return }
            _ = socket.send("\(PipelinedAbuser.endTag) PING\n", deadline: deadline)
        }
    }

    /// Ends the abuse: reads every reply up to the closing PING's.
    func finish(deadline: Double) -> AbuserReport {
        finishing.signal()
        let drained = socket.drain(untilLine: "\(PipelinedAbuser.endTag) OK PONG", deadline: deadline)
        cancelled.set()
        let outcome: AbuserReport.Outcome
        switch drained {
        case .found: outcome = .served
        case .closed: outcome = .dropped
        case .timedOut:
            outcome = .unresolved("its last request was not answered within the bound (\(socket.bytesReceived) bytes read)")
        case .tooMuch: outcome = .unresolved("more than 1 GiB of replies before its last request's")
        }
        if outcome != .served { socket.shutdown() }
        worker?.join(until: Monotonic.now() + 2)
        return AbuserReport(connection: connection, outcome: outcome, role: role)
    }
}

/// A connection that sends batches of requests and reads each batch's
/// replies before the next, as long as the abuse lasts.
final class BatchingAbuser: @unchecked Sendable {
    let socket: AbuseSocket
    let connection: Int?
    let role: String
    private let request: (Int) -> String
    private let batchSize: Int
    private let maximumBatches: Int
    private let stopping = Flag()
    private var worker: Worker?
    private var failure: AbuserReport.Outcome?
    private var batchesDone = 0

    private let finalRequest: String?
    private let stopsAtFinish: Bool

    /// - Parameters:
    ///   - stopsAtFinish: whether ``finish(deadline:)`` stops the batches
    ///     (true) or waits until all `maximumBatches` are done (false).
    ///   - finalRequest: sent (and its reply read) after the last batch.
    ///   - request: the n-th request line, without a tag.
    init(
        _ target: AbuseTarget, role: String, setup: [(String, String)], batchSize: Int, maximumBatches: Int,
        stopsAtFinish: Bool = true, finalRequest: String? = nil, deadline: Double, request: @escaping (Int) -> String
    ) throws {
        (socket, connection) = try AbuseSocket.greeted(target, authenticate: true, deadline: deadline)
        for (line, expected) in setup { try socket.expect(line, contains: expected, deadline: deadline) }
        self.role = role
        self.request = request
        self.batchSize = batchSize
        self.maximumBatches = maximumBatches
        self.stopsAtFinish = stopsAtFinish
        self.finalRequest = finalRequest
    }

    /// Starts the batches; they go on until the maximum count, `deadline`,
    /// or (if it stops them) ``finish(deadline:)``.
    func start(deadline: Double) {
        worker = Worker { [self] in
            runBatches(deadline: deadline)
            guard failure == nil, let finalRequest else { return }
            guard socket.send(finalRequest + "\n", deadline: deadline) == .sent, socket.readReply(deadline: deadline) != nil else {
                failure = socket.isClosedByPeer ? .dropped : .unresolved("its last request was not answered within the bound")
                return
            }
        }
    }

    private func runBatches(deadline: Double) {
        var n = 0
        while !(stopsAtFinish && stopping.isSet) && batchesDone < maximumBatches && Monotonic.now() < deadline {
            var batch = ""
            for _ in 0..<batchSize {
                batch += "@b\(n) " + request(n) + "\n"
                n += 1
            }
            switch socket.send(Array(batch.utf8), deadline: deadline) {
            case .sent: break
            case .closed:
                failure = .dropped
                return
            case .timedOut, .cancelled:
                failure = .unresolved("a batch could not be sent within the bound")
                return
            }
            for _ in 0..<batchSize {
                guard socket.readReply(deadline: deadline) != nil else {
                    failure = socket.isClosedByPeer ? .dropped : .unresolved("a reply did not come within the bound")
                    return
                }
            }
            batchesDone += 1
        }
        if batchesDone < maximumBatches && !(stopsAtFinish && stopping.isSet) {
            failure = .unresolved("only \(batchesDone) of its \(maximumBatches) batches were answered within the bound")
        }
    }

    func finish(deadline: Double) -> AbuserReport {
        stopping.set()
        guard worker?.join(until: deadline) != false else {
            socket.shutdown()
            return AbuserReport(connection: connection, outcome: .unresolved("its batches did not end within the bound"), role: role)
        }
        return AbuserReport(connection: connection, outcome: failure ?? .served, role: role)
    }

    /// Batches sent and answered.
    var batches: Int { batchesDone }
}

/// An unauthenticated connection holding an unfinished RESP bulk string:
/// it sends all but the last bytes, waits, and at the end sends the rest.
/// Served if it gets a reply then (an error: it never authenticated),
/// dropped if the daemon closed it, at any point.
final class BulkHolder: @unchecked Sendable {
    let socket: AbuseSocket
    let connection: Int?
    let role: String
    private let head: [UInt8]
    private let tail: [UInt8]
    private var worker: Worker?
    private var sendResult: AbuseSocket.SendResult = .cancelled

    /// - Parameter head: the array's header and the bulk string's length
    ///   line and all but `tail` of its bytes.
    init(_ target: AbuseTarget, role: String, head: [UInt8], tail: [UInt8], deadline: Double) throws {
        (socket, connection) = try AbuseSocket.greeted(target, authenticate: false, deadline: deadline)
        self.role = role
        self.head = head
        self.tail = tail
    }

    func start(deadline: Double) {
        worker = Worker { [self] in sendResult = socket.send(head, deadline: deadline) }
    }

    /// Waits until the head is sent (or refused): the bytes are held from then on.
    func waitUntilHeld(deadline: Double) -> Bool { worker?.join(until: deadline) ?? false }

    func finish(deadline: Double) -> AbuserReport {
        guard waitUntilHeld(deadline: deadline) else {
            socket.shutdown()
            return AbuserReport(connection: connection, outcome: .unresolved("its bulk string could not be sent within the bound"), role: role)
        }
        switch sendResult {
        case .closed: return AbuserReport(connection: connection, outcome: .dropped, role: role)
        case .sent: _ = socket.send(tail + [0x0D, 0x0A], deadline: deadline)
        // The daemon stopped reading it: it must still answer or close it.
        case .timedOut, .cancelled: break
        }
        let outcome: AbuserReport.Outcome
        switch socket.readLine(deadline: deadline) {
        case .line: outcome = .served
        case .closed: outcome = .dropped
        case .timedOut: outcome = .unresolved("no reply to its finished bulk string within the bound")
        }
        return AbuserReport(connection: connection, outcome: outcome, role: role)
    }
}
