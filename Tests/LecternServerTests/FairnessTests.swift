// FairnessTests.swift: while one client abuses the daemon (issue 16), another
// is still answered, and the abuser is served or dropped with a reason.

import Foundation
import Testing
@testable import bench_abuse

/// Each abuse of issue 16 against a fresh daemon, with the abuse code the
/// benchmark (`scripts/bench-abuse`) times: while it runs another
/// connection sends 1,000 PINGs one at a time, and every one must be
/// answered with its own `OK PONG`, in order; afterwards every abusing
/// connection must either have been served (the PING it sends last is
/// answered, after all its earlier replies) or have been dropped, with the
/// reason in the daemon's log. Nothing here is timed: a PING not answered
/// within 20 s, or a run past its bounds (see ``AbuseLimits``), fails the
/// test rather than hanging it.
@Suite(.serialized) struct FairnessTests {
    /// A token file of mode 0600, removed when the value goes.
    final class TokenFile {
        let token = "fairness-\(UUID().uuidString)"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-token-\(UUID().uuidString)")

        init() throws {
            guard FileManager.default.createFile(atPath: url.path, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
            else { throw Daemon.StartFailure(description: "cannot write \(url.path)") }
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Why the daemon's log says it closed connection `id`: the reason of
    /// its `connection_closed`, or the code and message of the protocol
    /// error it closed it for. nil if it logged neither.
    static func loggedDropReason(connection id: Int, in log: String) -> String? {
        for line in log.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.contains(Substring("id=\(id)")) else { continue }
            if fields.contains("event=connection_closed"), let reason = line.range(of: " reason=") {
                return String(line[reason.upperBound...])
            }
            if fields.contains("event=connection_protocol_error"), let code = line.range(of: " code=") {
                return String(line[code.upperBound...])
            }
        }
        return nil
    }

    private func expectFairness(during abuse: Abuse) throws {
        let token = try TokenFile()
        let daemon = try Daemon(["--auth-token-file", token.url.path])
        defer { daemon.stop() }
        let target = AbuseTarget(port: daemon.port, token: token.token, pid: daemon.process.processIdentifier)

        let result = AbuseRun.run(abuse, target: target, sizes: .test)

        try #require(result.setupFailure == nil, "\(abuse.rawValue) could not be set up: \(result.setupFailure ?? "")")
        #expect(result.pings.answered == AbuseLimits().pings, "\(abuse.rawValue): \(result.pings.failure ?? "")")
        #expect(!result.abusers.isEmpty)
        // The daemon logs a close before it closes the socket.
        let log = daemon.log
        for abuser in result.abusers {
            switch abuser.outcome {
            case .served: break
            case .dropped:
                let reason = abuser.connection.flatMap { Self.loggedDropReason(connection: $0, in: log) }
                #expect(reason != nil, "\(abuse.rawValue): \(abuser.role) (connection \(abuser.connection.map(String.init) ?? "?")) was dropped without a logged reason")
            case .unresolved(let why):
                Issue.record("\(abuse.rawValue): \(abuser.role) was neither served nor dropped: \(why)")
            }
        }
        #expect(daemon.process.isRunning, "\(abuse.rawValue): the daemon exited")
    }

    @Test func aHeredocOfOneByteLinesBeforeAuthDoesNotStallOthers() throws {
        try expectFairness(during: .heredocBeforeAuth)
    }

    @Test func aHeredocOfOneByteLinesAfterAuthDoesNotStallOthers() throws {
        try expectFairness(during: .heredocAfterAuth)
    }

    @Test func pipelinedRendersNeverReadDoNotStallOthers() throws {
        try expectFairness(during: .pipelinedRender)
    }

    @Test func pipelinedSentencesNeverReadDoNotStallOthers() throws {
        try expectFairness(during: .pipelinedSentences)
    }

    @Test func aThousandTypewriterStreamsAtOneMillisecondDoNotStallOthers() throws {
        try expectFairness(during: .typewriterStreams)
    }

    @Test func fortyViewsOfABigDocumentWhileOneTapsDoNotStallOthers() throws {
        try expectFairness(during: .manyViews)
    }

    @Test func tensOfThousandsOfSelectsDoNotStallOthers() throws {
        try expectFairness(during: .manySelects)
    }

    @Test func unauthenticatedUnfinishedBulkStringsDoNotStallOthers() throws {
        try expectFairness(during: .unauthenticatedBulk)
    }

    @Test func aDropIsFoundByItsConnectionsLogLine() {
        let log = """
            ts=1 level=info event=connection_closed id=12 peer=127.0.0.1:1
            ts=2 level=warn event=connection_closed id=1 peer=127.0.0.1:2 reason="output over hard limit"
            ts=3 level=warn event=connection_protocol_error id=7 peer=127.0.0.1:3 code=PAYLOAD message=x
            """
        #expect(Self.loggedDropReason(connection: 1, in: log) == "\"output over hard limit\"")
        #expect(Self.loggedDropReason(connection: 7, in: log) == "PAYLOAD message=x")
        #expect(Self.loggedDropReason(connection: 12, in: log) == nil)
        #expect(Self.loggedDropReason(connection: 2, in: log) == nil)
    }
}
