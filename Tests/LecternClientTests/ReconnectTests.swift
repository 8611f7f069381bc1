// ReconnectTests.swift: a daemon restart under a connection with a ReconnectPolicy.

import Foundation
import Testing
@testable import LecternClient

@Suite struct ReconnectTests {
    /// The daemon restarts on the same port with its data directory: the
    /// client reconnects, repeats HELLO with its units and restores its view
    /// and its watch, so CARET and events work without the app doing anything.
    @Test func restoresHelloViewAndWatchAfterARestart() async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-sdk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        var daemon = try LiveDaemon(arguments: ["--data-dir", dataDirectory])
        let port = daemon.port
        let lectern = try await daemon.connect(reconnect: ReconnectPolicy(initialDelay: .milliseconds(50), maximumAttempts: 100))
        let states = lectern.connectionEvents()
        try await lectern.hello(name: "phoenix", units: .grapheme)
        try await lectern.put("doc", text: "I 👍🏽 it. 한국어 좋아요. Done!", language: "en")
        try await lectern.view("doc", ViewOptions(width: 400, font: "DejaVu Sans"))
        try await lectern.watch("doc")
        let documentEvents = lectern.events(for: "doc")

        daemon.stop()
        daemon = try LiveDaemon(port: port, arguments: ["--data-dir", dataDirectory])

        var seen: [ConnectionEvent] = []
        for await event in states {
            seen.append(event)
            if case .reconnected = event { break }
        }
        #expect(seen.first == .lost(.connectionLost))
        #expect(seen.last == .reconnected(failures: []))
        #expect(lectern.isConnected)
        #expect(lectern.hello?.units == .grapheme)
        // The view is back (CARET needs it), in graphemes (3 is inside 👍🏽 in UTF-16).
        #expect(try await lectern.caret("doc", at: 3).line == 0)
        // The watch is back.
        let other = try await daemon.connect()
        try await other.put("doc", text: "Changed after the restart.")
        var iterator = documentEvents.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .changed(revision: 2, sentences: 1))
    }

    /// A daemon that lost its documents (`--memory`): `prepare` puts the
    /// document back before the view and watch are restored.
    @Test func prepareRunsBeforeViewsAndWatchesAreRestored() async throws {
        var daemon = try LiveDaemon()
        let port = daemon.port
        let text = "Kept by the client. Put back on reconnect."
        let policy = ReconnectPolicy(initialDelay: .milliseconds(50), maximumAttempts: 100) { lectern in
            try await lectern.put("doc", text: text, language: "en")
        }
        let lectern = try await daemon.connect(reconnect: policy)
        let states = lectern.connectionEvents()
        try await lectern.put("doc", text: text, language: "en")
        try await lectern.view("doc", ViewOptions(width: 120))
        try await lectern.watch("doc")

        daemon.stop()
        daemon = try LiveDaemon(port: port)
        for await event in states {
            if case .reconnected(let failures) = event {
                #expect(failures.isEmpty)
                break
            }
        }
        #expect(try await lectern.lines(of: "doc").count > 1)
        #expect(try await daemon.connect().stats().documents == 1)
    }

    /// Without `prepare`, what the new daemon lacks is reported and forgotten.
    @Test func reportsWhatCouldNotBeRestored() async throws {
        var daemon = try LiveDaemon()
        let port = daemon.port
        let lectern = try await daemon.connect(reconnect: ReconnectPolicy(initialDelay: .milliseconds(50), maximumAttempts: 100))
        let states = lectern.connectionEvents()
        try await lectern.put("gone", text: "Lost in the restart.")
        try await lectern.view("gone", ViewOptions(width: 200))
        try await lectern.watch("gone")
        daemon.stop()
        daemon = try LiveDaemon(port: port)
        var failures: [RestoreFailure]?
        for await event in states {
            if case .reconnected(let restoreFailures) = event {
                failures = restoreFailures
                break
            }
        }
        #expect(failures?.map(\.request) == ["VIEW gone", "WATCH gone"])
        #expect(failures?.allSatisfy { $0.error.code == .noDocument } == true)
        #expect(try await lectern.ping("still here") == "still here")
    }

    /// Requests in flight when the daemon goes away fail with connectionLost;
    /// with no policy, the connection is then closed for good.
    @Test func withoutAPolicyALostConnectionCloses() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        let states = lectern.connectionEvents()
        daemon.stop()
        var seen: [ConnectionEvent] = []
        for await event in states { seen.append(event) }
        #expect(seen == [.closed(.connectionLost)])
        await #expect(throws: LecternError.connectionLost) { try await lectern.ping() }
    }

    /// A policy with a limit gives up and closes.
    @Test func givesUpAfterMaximumAttempts() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect(reconnect: ReconnectPolicy(initialDelay: .milliseconds(10), maximumAttempts: 3))
        let states = lectern.connectionEvents()
        daemon.stop()
        var attempts = 0
        var last: ConnectionEvent?
        for await event in states {
            if case .reconnecting = event { attempts += 1 }
            last = event
        }
        #expect(attempts == 3)
        #expect(last == .closed(.connectionLost))
    }

    @Test func backoffDoublesUpToTheMaximum() {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .seconds(1))
        #expect((1...6).map(policy.delay(before:)) == [
            .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1),
        ])
    }
}
