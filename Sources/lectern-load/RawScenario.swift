// RawScenario.swift: one request line, one reply line: any line protocol.

/// Sends `--request` (ended with CRLF) and expects one reply line starting
/// with `--expect`; a line starting with `-` (Redis) or `ERR ` is an error
/// reply. With `--request PING --expect +PONG` this measures Redis's inline
/// PING, the baseline lecternd is compared with. A Redis bulk string counts
/// as one reply too (its `$N` line is the one matched), so `--request "GET
/// k" --expect '$304'` measures Redis sending a value as long as a TAP reply.
final class RawScenario: LoadScenario {
    let connectionCount: Int
    private let request: ScenarioRequest

    var framing: ReplyFramer.Framing { .singleLine }

    init(options: LoadOptions, share: LoadShare) {
        connectionCount = share.connections
        request = ScenarioRequest(
            bytes: ArraySlice((options.requestLine + "\r\n").utf8),
            expectation: ReplyExpectation(data: nil, finalPrefixes: options.expectedPrefix.map { [$0] } ?? []))
    }

    func nextRequest(for index: Int, intendedAt: UInt64) -> ScenarioRequest { request }
}
