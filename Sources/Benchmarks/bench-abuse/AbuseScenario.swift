// AbuseScenario.swift: one abuse's documents and connections, started and ended together.

/// What an ``Abuse`` is made of: documents put first (by the run's setup
/// connection, which also sends `setup`), then abusing connections of the
/// three kinds in Abusers.swift, made by the closures (after the
/// documents exist), started together, and ended together.
final class AbuseScenario {
    typealias Maker<T> = (AbuseTarget, _ deadline: Double) throws -> [T]

    let documents: [(String, [UInt8])]
    /// Requests the setup connection sends after the documents, with what
    /// each reply's final line must contain.
    let setup: [(String, String)]
    private let makePipelined: Maker<PipelinedAbuser>
    private let makeBatching: Maker<BatchingAbuser>
    private let makeHolders: Maker<BulkHolder>
    private(set) var pipelined: [PipelinedAbuser] = []
    private(set) var batching: [BatchingAbuser] = []
    private(set) var holders: [BulkHolder] = []

    init(
        documents: [(String, [UInt8])] = [], setup: [(String, String)] = [],
        pipelined: @escaping Maker<PipelinedAbuser> = { _, _ in [] },
        batching: @escaping Maker<BatchingAbuser> = { _, _ in [] },
        holders: @escaping Maker<BulkHolder> = { _, _ in [] }
    ) {
        self.documents = documents
        self.setup = setup
        makePipelined = pipelined
        makeBatching = batching
        makeHolders = holders
    }

    /// Puts the documents and opens the abusing connections (greeted, with
    /// their own setup done), but starts nothing.
    func prepare(_ target: AbuseTarget, setupConnection: AbuseSocket, deadline: Double) throws {
        for (id, text) in documents { try setupConnection.put(id, text, deadline: deadline) }
        for (line, expected) in setup { try setupConnection.expect(line, contains: expected, deadline: deadline) }
        pipelined = try makePipelined(target, deadline)
        batching = try makeBatching(target, deadline)
        holders = try makeHolders(target, deadline)
    }

    /// Starts every abusing connection. Returns once the abuse is under
    /// way: requests are being sent, and bulk strings are held (sent, or
    /// refused), or `holdDeadline` passed.
    func start(abuseDeadline: Double, holdDeadline: Double) {
        for abuser in pipelined { abuser.start(deadline: abuseDeadline) }
        for abuser in batching { abuser.start(deadline: abuseDeadline) }
        for holder in holders { holder.start(deadline: holdDeadline) }
        for holder in holders { _ = holder.waitUntilHeld(deadline: holdDeadline) }
    }

    /// Ends the abuse: what became of each abusing connection.
    func finish(deadline: Double) -> [AbuserReport] {
        batching.map { $0.finish(deadline: deadline) }
            + pipelined.map { $0.finish(deadline: deadline) }
            + holders.map { $0.finish(deadline: deadline) }
    }

    /// Closes every abusing connection.
    func close() {
        for abuser in pipelined { abuser.socket.shutdown() }
        for abuser in batching { abuser.socket.shutdown() }
        for holder in holders { holder.socket.shutdown() }
        pipelined = []
        batching = []
        holders = []
    }
}
