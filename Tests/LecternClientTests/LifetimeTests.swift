// LifetimeTests.swift: what happens when the app lets go of a connection.

import Testing
@testable import LecternClient

@Suite struct LifetimeTests {
    /// Dropping the last reference to a connection ends the event
    /// sequences that outlive it, instead of leaving their consumers waiting.
    @Test func droppingTheConnectionEndsItsEventSequences() async throws {
        let daemon = try LiveDaemon()
        var lectern: LecternConnection? = try await daemon.connect()
        let events = try #require(lectern?.events())
        let states = try #require(lectern?.connectionEvents())
        try await lectern?.ping()
        lectern = nil
        for await _ in events { Issue.record("no event expected") }
        var last: ConnectionEvent?
        for await state in states { last = state }
        #expect(last == .closed(.closed))
    }
}
