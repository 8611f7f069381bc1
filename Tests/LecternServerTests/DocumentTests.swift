// DocumentTests.swift: documents, views and watching, as clients use them.

import Foundation
import Testing

@Suite struct DocumentTests {
    @Test func literalTextIsStoredByteForByte() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        let text = "Line one.\r\nTab\there. 👍🏽 Ünïcødé\u{2029}한국어 문장. \"Quoted\" \\ end"
        let bytes = Array(text.utf8)
        client.send(bytes: Array("PUT exact {\(bytes.count)}\r\n".utf8) + bytes + Array("\r\n".utf8))
        #expect(try client.readReply().last?.hasPrefix("OK PUT id=exact") == true)
        client.sendLine("GET exact")
        #expect(try client.readLine() == "* {\(bytes.count)}")
        #expect(try client.readBytes(count: bytes.count) == bytes)
        #expect(try client.readLine() == "")
        #expect(try client.readLine()?.hasPrefix("OK GET id=exact revision=1 bytes=\(bytes.count)") == true)
    }

    @Test func aLargeDocumentIsLaidOutOffTheLoopWhileOthersAreServed() throws {
        let daemon = try Daemon()
        let writer = try daemon.connect()
        let other = try daemon.connect()
        let paragraph = "Lectern lays out long documents off its loop thread. 한국어 문장도 있습니다. Русский текст тоже. "
        let text = String(repeating: paragraph, count: 2000)  // ~290 KB
        let bytes = Array(text.utf8)
        writer.send(bytes: Array("PUT big {\(bytes.count)}\n".utf8) + bytes + [0x0A])
        // Pipelined behind the VIEW: replies must still come in order.
        writer.send("@v VIEW big width=300 size=15\n@t TAP big 10 5\n@p PING\n")
        #expect(try other.request("PING") == ["OK PONG"])
        #expect(try writer.readReply().last?.hasPrefix("OK PUT id=big") == true)
        #expect(try writer.readReply().last?.hasPrefix("@v OK VIEW id=big") == true)
        #expect(try writer.readReply().last?.hasPrefix("@t OK TAP hit sentence=0") == true)
        #expect(try writer.readReply() == ["@p OK PONG"])
    }

    /// A reader taps one document over and over (the fast path remembers
    /// the document and view it last tapped); whatever changes in between,
    /// by this connection or another, the next TAP answers from the
    /// document and view as they are now.
    @Test func tapsFollowEveryChangeOfTheirDocumentAndView() throws {
        let daemon = try Daemon()
        let reader = try daemon.connect()
        let editor = try daemon.connect()
        func tap(_ request: String = "TAP doc 5 5") throws -> [String] { try reader.request(request) }

        #expect(try editor.request("PUT doc \"First text. Second.\"").last?.hasPrefix("OK PUT") == true)
        #expect(try reader.request("VIEW doc width=300").last?.hasPrefix("OK VIEW") == true)
        #expect(try tap().first == "* sentence 0 range=0..12 content=0..11 paragraph=0 text=\"First text.\"")
        #expect(try tap().first == "* sentence 0 range=0..12 content=0..11 paragraph=0 text=\"First text.\"")

        // Replaced by another connection: same document object, new text.
        #expect(try editor.request("PUT doc \"Replaced. Yes.\"").last?.hasPrefix("OK PUT") == true)
        #expect(try tap().first == "* sentence 0 range=0..10 content=0..9 paragraph=0 text=\"Replaced.\"")

        // Deleted: NODOC, not the remembered document.
        #expect(try editor.request("DEL doc").last?.hasPrefix("OK DEL") == true)
        #expect(try tap().last?.hasPrefix("ERR NODOC") == true)

        // Created again under the same id: a new document, and this
        // connection's view of the id still applies.
        #expect(try editor.request("PUT doc \"Anew. Again.\"").last?.hasPrefix("OK PUT") == true)
        #expect(try tap().first == "* sentence 0 range=0..6 content=0..5 paragraph=0 text=\"Anew.\"")

        // A narrower view: the rects follow it.
        let wide = try tap()[1]
        #expect(try reader.request("VIEW doc width=20").last?.hasPrefix("OK VIEW") == true)
        let narrow = try tap()
        #expect(narrow.last?.hasPrefix("OK TAP") == true)
        #expect(narrow.count < 2 || narrow[1] != wide)

        // Another id, then back: each answers for itself.
        #expect(try editor.request("PUT other \"Other one.\"").last?.hasPrefix("OK PUT") == true)
        #expect(try reader.request("TAP other 5 5").last?.hasPrefix("ERR NOVIEW") == true)
        #expect(try editor.request("VIEW other width=300 default=yes").last?.hasPrefix("OK VIEW") == true)
        #expect(try reader.request("TAP other 5 5").first == "* sentence 0 range=0..10 content=0..10 paragraph=0 text=\"Other one.\"")
        #expect(try tap().last?.hasPrefix("OK TAP") == true)
        #expect(try editor.request("VIEW other width=10 default=yes").last?.hasPrefix("OK VIEW") == true)
        #expect(try reader.request("TAP other 500 500").last?.hasPrefix("OK TAP miss") == true)
    }

    @Test func aDocumentEditedWhileOthersWatchIt() throws {
        let daemon = try Daemon()
        let editor = try daemon.connect()
        let watchers = try (0..<5).map { _ in try daemon.connect() }
        #expect(try editor.request("HELLO").last?.contains("connection=1") == true)
        #expect(try editor.request("PUT doc \"One sentence. Two sentences.\"").last?.hasPrefix("OK PUT") == true)
        for (n, watcher) in watchers.enumerated() {
            // Different widths, so each gets rects in its own view.
            #expect(try watcher.request("VIEW doc width=\(80 + n * 100) size=\(12 + n * 3)").last?.hasPrefix("OK VIEW") == true)
            #expect(try watcher.request("WATCH doc").last?.hasPrefix("OK WATCH id=doc") == true)
        }
        #expect(try editor.request("PUT doc \"Edited. Now three. Sentences.\"").last?.hasPrefix("OK PUT") == true)
        for watcher in watchers {
            #expect(try watcher.readLine() == "! CHANGED doc by=1 revision=2 sentences=3")
            let rects = try watcher.request("RECTS doc 1")
            #expect(rects.first == "* sentence 1 range=8..19 content=8..18 paragraph=0 text=\"Now three.\"")
        }
        #expect(try editor.request("VIEW doc width=200").last?.hasPrefix("OK VIEW") == true)
        #expect(try editor.request("TAP doc 5 5").last?.hasPrefix("OK TAP hit sentence=0") == true)
        var rectsSeen: Set<String> = []
        for watcher in watchers {
            let event = try #require(try watcher.readLine())
            #expect(event.hasPrefix("! TAP doc by=1 revision=2 sentence=0 range=0..7 rects="))
            rectsSeen.insert(String(event.split(separator: " ").first { $0.hasPrefix("rects=") } ?? ""))
        }
        #expect(rectsSeen.count >= 2, "watchers with different views get different rects")
        #expect(try editor.request("DEL doc") == ["OK DEL id=doc"])
        for watcher in watchers { #expect(try watcher.readLine() == "! DELETED doc by=1") }
    }

    @Test func aThousandConcurrentConnections() throws {
        let daemon = try Daemon(["--log-level", "warn"])
        var clients: [LineClient] = []
        for _ in 0..<1000 { clients.append(try daemon.connect()) }
        #expect(try clients[0].request("PUT shared \"Everyone reads this. Together.\"").last?.hasPrefix("OK PUT") == true)
        for (n, client) in clients.enumerated() { client.sendLine("@\(n) SENTENCES shared 1 1") }
        for (n, client) in clients.enumerated() {
            #expect(try client.readReply() == [
                "* sentence 1 range=21..30 content=21..30 paragraph=0 lang=en text=\"Together.\"", "@\(n) OK SENTENCES 1 of 2",
            ])
        }
        let stats = try clients[999].request("STATS")
        #expect(stats.contains("* connections 1000"))
    }

    @Test func idleConnectionsAreClosedButWatchersAreNot() throws {
        let daemon = try Daemon(["--idle-timeout", "1"])
        let idle = try daemon.connect()
        let watcher = try daemon.connect()
        #expect(try watcher.request("PUT d \"x\"").last?.hasPrefix("OK") == true)
        #expect(try watcher.request("WATCH d").last?.hasPrefix("OK") == true)
        #expect(try idle.request("PING") == ["OK PONG"])
        #expect(try idle.readLine() == "ERR IDLE closing: no request for 1 s (--idle-timeout); reconnect when needed")
        #expect(try idle.waitForClose())
        #expect(daemon.log.contains("idle for 1 s"))
        #expect(try watcher.request("PING") == ["OK PONG"])
    }

    @Test func theUnixSocketIsPrivateAndSpeaksTheProtocol() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-\(UUID().uuidString.prefix(8)).sock").path
        let daemon = try Daemon(["--unix-socket", path])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(daemon.log.contains("addr=unix:\(path)"))
        let client = try LineClient(unixPath: path)
        #expect(try client.request("PING") == ["OK PONG"])
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
