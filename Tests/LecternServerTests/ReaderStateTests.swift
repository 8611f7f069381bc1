// ReaderStateTests.swift: each reader's watches, selections and streams are
// one record: they go when the reader closes or the document goes, and no
// one else's go with them.

import Foundation
import Testing

@Suite struct ReaderStateTests {
    static let text = "\"First sentence. Second sentence.\""

    /// A daemon with documents `ids`, each with a default view in which
    /// (10, 10) is on sentence 0 and (150, 10) on sentence 1.
    private func daemon(with ids: [String]) throws -> (Daemon, LineClient) {
        let daemon = try Daemon()
        let setup = try daemon.connect()
        for id in ids {
            #expect(try setup.request("PUT \(id) \(Self.text)").last?.hasPrefix("OK PUT") == true)
            #expect(try setup.request("VIEW \(id) width=240 size=17 default=yes").last?.hasPrefix("OK VIEW") == true)
        }
        return (daemon, setup)
    }

    private func streams(_ client: LineClient) throws -> String? {
        try client.request("STATS").first { $0.hasPrefix("* streams ") }
    }

    /// The stream id of a `TYPE` reply.
    private func type(_ id: String, on client: LineClient) throws -> String {
        let reply = try client.request("TYPE \(id) interval=60000").last ?? ""
        let field = reply.split(separator: " ").first { $0.hasPrefix("stream=") }
        return String(try #require(field).dropFirst("stream=".count))
    }

    @Test func aClosedConnectionLeavesNoWatchSelectionOrStreamAndOthersKeepTheirs() throws {
        let (daemon, observer) = try self.daemon(with: ["a", "b", "c"])
        let leaving = try daemon.connect()
        let staying = try daemon.connect()
        for id in ["a", "b"] {
            #expect(try leaving.request("WATCH \(id)").last?.hasPrefix("OK WATCH id=\(id)") == true)
            #expect(try leaving.request("SELECT \(id) 10 10").last == "OK SELECT added sentence=0 selected=1")
        }
        for id in ["a", "b", "c"] { _ = try type(id, on: leaving) }
        #expect(try staying.request("WATCH a") == ["OK WATCH id=a watchers=2"])
        #expect(try staying.request("SELECT a 150 10").last == "OK SELECT added sentence=1 selected=1")
        let kept = try type("b", on: staying)
        #expect(try streams(observer) == "* streams 4")

        // Its reply comes after the `! SELECT` of the other's selection.
        #expect(try leaving.request("QUIT").last == "OK BYE")
        #expect(try leaving.waitForClose())

        // Its three streams are gone, the other connection's is not.
        #expect(try streams(observer) == "* streams 1")
        #expect(try staying.request("PAUSE \(kept)") == ["OK PAUSE stream=\(kept) end=0 graphemes=0"])
        // Its watches are gone: the watchers now are the one left and the newcomer.
        #expect(try observer.request("WATCH a") == ["OK WATCH id=a watchers=2"])
        #expect(try observer.request("WATCH b") == ["OK WATCH id=b watchers=1"])
        // The one left still watches, and its selection is whole.
        #expect(try observer.request("TAP a 10 10").last?.hasPrefix("OK TAP hit sentence=0") == true)
        #expect(try staying.readLine()?.hasPrefix("! TAP a by=1 revision=1 sentence=0 range=0..15 ") == true)
        let selection = try staying.request("SELECTION a")
        #expect(selection.first == "* sentence 1 range=16..32 content=16..32 paragraph=0 text=\"Second sentence.\"")
        #expect(selection.last == "OK SELECTION 1")
        // A TAP on b, which only the closed connection watched, reaches nobody but its new watcher.
        #expect(try staying.request("TAP b 10 10").last?.hasPrefix("OK TAP hit") == true)
        #expect(try observer.readLine()?.hasPrefix("! TAP b by=3 ") == true)
        #expect(try observer.request("PING") == ["OK PONG"])
    }

    @Test func aDeletedDocumentTakesEveryReadersStateInItAndItsIdStartsClean() throws {
        let (daemon, editor) = try self.daemon(with: ["d", "other"])
        let reader = try daemon.connect()
        #expect(try reader.request("WATCH d").last?.hasPrefix("OK WATCH") == true)
        #expect(try reader.request("WATCH other").last?.hasPrefix("OK WATCH") == true)
        #expect(try reader.request("SELECT d 10 10").last == "OK SELECT added sentence=0 selected=1")
        #expect(try reader.request("SELECT other 150 10").last == "OK SELECT added sentence=1 selected=1")
        let stream = try type("d", on: reader)
        let otherStream = try type("other", on: reader)

        #expect(try editor.request("DEL d") == ["OK DEL id=d"])
        #expect(try reader.readLine() == "! DONE d stream=\(stream) end=0 graphemes=0")
        #expect(try reader.readLine() == "! DELETED d by=1")
        #expect(try streams(editor) == "* streams 1")
        #expect(try reader.request("PAUSE \(stream)") == ["ERR NOSTREAM no stream \(stream) on this connection (TYPE starts one)"])

        // The same id, a new document: nothing of the old one's readers applies to it.
        #expect(try editor.request("PUT d \(Self.text)").last?.hasPrefix("OK PUT id=d revision=") == true)
        #expect(try editor.request("VIEW d width=240 size=17 default=yes").last?.hasPrefix("OK VIEW") == true)
        #expect(try reader.request("SELECTION d") == ["OK SELECTION 0"])
        #expect(try editor.request("WATCH d") == ["OK WATCH id=d watchers=1"])
        #expect(try editor.request("UNWATCH d") == ["OK UNWATCH id=d"])
        #expect(try editor.request("TAP d 10 10").last?.hasPrefix("OK TAP hit") == true)
        // The reader's state in the other document is untouched.
        #expect(try reader.request("SELECTION other").last == "OK SELECTION 1")
        #expect(try reader.request("PAUSE \(otherStream)").last?.hasPrefix("OK PAUSE stream=\(otherStream)") == true)
        #expect(try editor.request("TAP other 10 10").last?.hasPrefix("OK TAP hit") == true)
        // The TAP on the new d sent the reader nothing; the one on other did.
        #expect(try reader.readLine()?.hasPrefix("! TAP other by=1 ") == true)
        #expect(try reader.request("PING") == ["OK PONG"])
    }

    /// Watching spares a connection the idle timeout; once the document it
    /// watched is deleted, nothing does.
    @Test func aDeletedDocumentsWatcherIsNoLongerSparedTheIdleTimeout() throws {
        let daemon = try Daemon(["--idle-timeout", "1"])
        let editor = try daemon.connect()
        let watcher = try daemon.connect()
        #expect(try editor.request("PUT d \(Self.text)").last?.hasPrefix("OK PUT") == true)
        #expect(try watcher.request("WATCH d") == ["OK WATCH id=d watchers=1"])
        #expect(try editor.request("DEL d") == ["OK DEL id=d"])
        #expect(try watcher.readLine() == "! DELETED d by=1")
        #expect(try watcher.readLine() == "ERR IDLE closing: no request for 1 s (--idle-timeout); reconnect when needed")
        #expect(try watcher.waitForClose())
    }

    @Test func aTextChangeDropsEveryConnectionsSelectionAndKeepsWatchesAndStreams() throws {
        let (daemon, editor) = try self.daemon(with: ["d", "notes"])
        let first = try daemon.connect()
        let second = try daemon.connect()
        #expect(try first.request("SELECT d 150 10").last == "OK SELECT added sentence=1 selected=1")
        #expect(try second.request("SELECT d 10 10").last == "OK SELECT added sentence=0 selected=1")
        #expect(try second.request("SELECT notes 10 10").last == "OK SELECT added sentence=0 selected=1")
        #expect(try second.request("WATCH d").last?.hasPrefix("OK WATCH") == true)
        let stream = try type("d", on: second)

        // An attachment is no text change: selections stay.
        #expect(try editor.request("ATTACH d box at=end 10 10").last?.hasPrefix("OK ATTACH") == true)
        #expect(try second.readLine()?.hasPrefix("! CHANGED d by=1 ") == true)
        #expect(try first.request("SELECTION d").last == "OK SELECTION 1")

        // MOVE replaces both texts: every selection in both documents goes,
        // the mover's and everyone else's (d keeps its sentence 0, which
        // the second connection had selected).
        #expect(try first.request("MOVE d to=notes").last?.hasPrefix("OK MOVE sentences=1 to=notes") == true)
        #expect(try second.readLine()?.hasPrefix("! RESTART d stream=\(stream) ") == true)
        #expect(try second.readLine()?.hasPrefix("! CHANGED d by=2 ") == true)
        #expect(try first.request("SELECTION d") == ["OK SELECTION 0"])
        #expect(try second.request("SELECTION d") == ["OK SELECTION 0"])
        #expect(try second.request("SELECTION notes") == ["OK SELECTION 0"])

        #expect(try second.request("SELECT d 10 10").last == "OK SELECT added sentence=0 selected=1")
        #expect(try editor.request("PUT d \(Self.text)").last?.hasPrefix("OK PUT") == true)
        #expect(try second.readLine()?.hasPrefix("! RESTART d stream=\(stream) ") == true)
        #expect(try second.readLine()?.hasPrefix("! CHANGED d by=1 ") == true)
        #expect(try second.request("SELECTION d") == ["OK SELECTION 0"])

        // The watch and the stream outlive the changes.
        #expect(try streams(editor) == "* streams 1")
        #expect(try editor.request("TAP d 10 10").last?.hasPrefix("OK TAP hit") == true)
        #expect(try second.readLine()?.hasPrefix("! TAP d by=1 ") == true)
    }
}
