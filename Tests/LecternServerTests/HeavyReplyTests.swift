// HeavyReplyTests.swift: commands whose replies grow with a document, on
// large documents: answered correctly and in request order, built off the
// loop thread (STATS background_replies), refused with TOOLARGE rather than
// dropped past the output limit; SELECT and SELECTION of 200,000 sentences.

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct HeavyReplyTests {
    /// `count` distinct sentences of prose, one paragraph (~28 bytes each).
    static func prose(sentences count: Int) -> String {
        (0..<count).map { "Sentence number \($0) is here." }.joined(separator: " ")
    }

    /// `PUT id {N}` with the text as a literal.
    static func put(_ id: String, _ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return Array("PUT \(id) {\(bytes.count)}\n".utf8) + bytes + [0x0A]
    }

    static func backgroundReplies(_ client: BulkClient) throws -> Int {
        let stats = try client.request("STATS")
        let line = stats.lines.first { $0.hasPrefix("* background_replies ") } ?? ""
        return try #require(Int(line.split(separator: " ").last ?? ""), "STATS has background_replies")
    }

    @Test func heavyRepliesComeInOrderWhileOthersAreServed() throws {
        let daemon = try Daemon(["--log-level", "warn"])
        let writer = try BulkClient(port: daemon.port)
        let other = try BulkClient(port: daemon.port)
        let text = Self.prose(sentences: 2200)  // ~60 KB: past the 8,192-unit threshold
        writer.send(bytes: Self.put("big", text))
        let put = try writer.readReply().status
        #expect(put.hasPrefix("OK PUT id=big revision=1 bytes=\(text.utf8.count)"))
        #expect(put.contains(" sentences=2200 "))
        let view = try writer.request("VIEW big width=300").status
        let lineCount = try #require(view.split(separator: " ").first { $0.hasPrefix("lines=") }.flatMap { Int($0.dropFirst(6)) })
        let before = try Self.backgroundReplies(writer)

        // All pipelined: each waits for the one before it.
        writer.send("@r RENDER big\n@l LINES big\n@s SENTENCES big\n@g GET big\n@c SENTENCES big 10 3\n@p PING\n")
        // Another connection is served meanwhile, every request answered.
        for n in 0..<50 { #expect(try other.request("@\(n) PING").status == "@\(n) OK PONG") }

        let render = try writer.readReply()
        let svg = try #require(render.literals.first)
        #expect(render.status == "@r OK RENDER bytes=\(svg.count) width=300 height=\(view.split(separator: " ").last?.dropFirst(7) ?? "")")
        #expect(svg.starts(with: Array("<svg xmlns=".utf8)))
        #expect(svg.suffix(7) == Array("</svg>\n".utf8))
        // Every character but the spaces is drawn, each as one glyph (the prose has no ligature).
        #expect(String(decoding: svg, as: UTF8.self).components(separatedBy: "<use ").count - 1
            == text.unicodeScalars.filter { $0 != " " }.count)

        let lines = try writer.readReply()
        #expect(lines.status == "@l OK LINES \(lineCount)")
        #expect(lines.lines.count == lineCount + 1)
        #expect(lines.lines.first?.hasPrefix("* line 0 range=0..") == true)
        #expect(lines.lines.dropLast().allSatisfy { $0.hasPrefix("* line ") })

        let sentences = try writer.readReply()
        #expect(sentences.status == "@s OK SENTENCES 2200 of 2200")
        #expect(sentences.lines.count == 2201)
        #expect(sentences.lines[0] == "* sentence 0 range=0..27 content=0..26 paragraph=0 lang=en text=\"Sentence number 0 is here.\"")
        #expect(sentences.lines[2199].hasSuffix("text=\"Sentence number 2199 is here.\""))

        let get = try writer.readReply()
        #expect(get.literals.first == Array(text.utf8))
        #expect(get.status.hasPrefix("@g OK GET id=big revision=1 bytes=\(text.utf8.count) "))

        let page = try writer.readReply()
        #expect(page.status == "@c OK SENTENCES 3 of 2200")
        #expect(page.lines.first?.hasSuffix("text=\"Sentence number 10 is here.\"") == true)
        #expect(try writer.readReply().status == "@p OK PONG")

        // RENDER, LINES, SENTENCES and GET were built off the loop; the page of three was not.
        #expect(try Self.backgroundReplies(writer) - before == 4)
        #expect(daemon.process.isRunning)
    }

    @Test func renderPastTheOutputLimitIsRefusedBeforeDrawing() throws {
        let daemon = try Daemon(["--output-hard-limit", "100000", "--log-level", "warn"])
        let client = try BulkClient(port: daemon.port)
        client.send(bytes: Self.put("big", Self.prose(sentences: 2200)))
        #expect(try client.readReply().status.hasPrefix("OK PUT id=big"))
        #expect(try client.request("VIEW big width=300").status.hasPrefix("OK VIEW"))
        // The SVG would be megabytes: refused from the estimate, nothing drawn or sent.
        let refused = try client.request("@r RENDER big boxes=yes")
        #expect(refused.lines.count == 1)
        #expect(refused.status.hasPrefix("@r ERR TOOLARGE RENDER of 'big' would be up to "))
        #expect(refused.status.contains("(estimated before drawing), over the output limit of 100000 bytes"))
        let estimate = refused.status.split(separator: " ").compactMap { Int($0) }.first ?? 0
        #expect(estimate > 100_000)
        // The connection is kept, and a picture that fits is drawn.
        #expect(try client.request("PING").status == "OK PONG")
        #expect(try client.request("PUT small \"One. Two.\"").status.hasPrefix("OK PUT"))
        #expect(try client.request("VIEW small width=200").status.hasPrefix("OK VIEW"))
        let small = try client.request("RENDER small")
        #expect(small.status.hasPrefix("OK RENDER bytes=\(small.literals.first?.count ?? -1) "))
        // A reply found too large only once built is refused the same way.
        let sentences = try client.request("SENTENCES big")
        #expect(sentences.lines.count == 1)
        #expect(sentences.status.hasPrefix("ERR TOOLARGE 2200 sentences of 'big' would be "))
        #expect(sentences.status.contains("over the output limit of 100000 bytes per connection (--output-hard-limit); ask for fewer"))
        #expect(try client.request("SENTENCES big 0 2").status == "OK SENTENCES 2 of 2200")
        #expect(!daemon.log.contains("output over hard limit"))
    }

    /// 200,000 sentences, one per line, each selected by its own SELECT:
    /// a toggle costs the same however many are selected (the quadratic
    /// version copied the whole selection on each), and SELECTION lists
    /// them all in order.
    @Test func twoHundredThousandSelectionsAndTheirList() throws {
        let count = 200_000
        let daemon = try Daemon(["--log-level", "warn"])
        let client = try BulkClient(port: daemon.port, timeoutSeconds: 60)
        client.send(bytes: Self.put("sel", (0..<count).map { "S\($0)." }.joined(separator: "\n")))
        #expect(try client.readReply().status.contains(" sentences=\(count) "))
        // One line per sentence, 10 points tall: sentence n is at y = 10n + 5.
        #expect(try client.request("VIEW sel width=200 line-height=10").status.contains(" lines=\(count) "))
        let writer = Thread {
            var batch = ""
            for n in 0..<count {
                batch += "SELECT sel 3 \(10 * n + 5)\n"
                if batch.utf8.count > 60_000 {
                    client.send(batch)
                    batch = ""
                }
            }
            client.send(batch)
        }
        writer.start()
        var answered = 0
        while answered < count {
            let reply = try client.readReply()
            guard reply.status == "OK SELECT added sentence=\(answered) selected=\(answered + 1)" else {
                Issue.record("SELECT \(answered) got \(reply.status)")
                return
            }
            answered += 1
        }
        #expect(answered == count)
        let before = try Self.backgroundReplies(client)
        let list = try client.request("SELECTION sel")
        #expect(list.status == "OK SELECTION \(count)")
        #expect(list.lines.count == 3 * count + 1)
        var inOrder = true
        for n in stride(from: 0, to: count, by: 1) where !list.lines[3 * n].hasPrefix("* sentence \(n) range=") {
            inOrder = false
        }
        #expect(inOrder, "SELECTION lists every sentence in text order")
        #expect(list.lines[3 * 7] == "* sentence 7 range=28..32 content=28..31 paragraph=7 text=\"S7.\"")
        #expect(list.lines[3 * 7 + 1].hasPrefix("* rects 0,70,"))
        #expect(try Self.backgroundReplies(client) - before == 1)
        // And a toggle still costs one step.
        #expect(try client.request("SELECT sel 3 5").status == "OK SELECT removed sentence=0 selected=\(count - 1)")
    }

    @Test func attachToALargeDocumentGivesTheRectItsLayoutHas() throws {
        let daemon = try Daemon(["--log-level", "warn"])
        let client = try BulkClient(port: daemon.port)
        let text = Self.prose(sentences: 2200)
        client.send(bytes: Self.put("big", text))
        #expect(try client.readReply().status.hasPrefix("OK PUT"))
        #expect(try client.request("VIEW big width=300").status.hasPrefix("OK VIEW"))
        let before = try Self.backgroundReplies(client)
        let attach = try client.request("ATTACH big anim at=end 30 30").status
        let fields = attach.split(separator: " ")
        let rectText = try #require(fields.first { $0.hasPrefix("rect=") }).dropFirst(5)
        #expect(attach.hasPrefix("OK ATTACH name=anim offset=\(text.utf16.count) rect="))
        #expect(try Self.backgroundReplies(client) - before == 1)
        // Laid out afresh (the same text again drops every layout and keeps
        // the attachment): the box is where ATTACH said.
        client.send(bytes: Self.put("big", text))
        #expect(try client.readReply().status.hasPrefix("OK PUT id=big revision=3"))
        let rect = rectText.split(separator: ",").compactMap { Double($0) }
        #expect(rect.count == 4)
        let tap = try client.request("TAP big \(rect[0] + 15) \(rect[1] + 15)").status
        #expect(tap == "OK TAP attachment name=anim offset=\(text.utf16.count) rect=\(rectText)")
    }

    @Test func copyAndMoveOutOfALargeDocument() throws {
        let daemon = try Daemon(["--log-level", "warn"])
        let client = try BulkClient(port: daemon.port)
        let text = Self.prose(sentences: 2200)
        client.send(bytes: Self.put("big", text))
        #expect(try client.readReply().status.hasPrefix("OK PUT"))
        #expect(try client.request("VIEW big width=300 line-height=20").status.hasPrefix("OK VIEW"))
        #expect(try client.request("SELECT big 5 10").status == "OK SELECT added sentence=0 selected=1")
        let second = try client.request("SELECT big 5 70").status
        let number = try #require(second.split(separator: " ").first { $0.hasPrefix("sentence=") }.flatMap { Int($0.dropFirst(9)) })
        let before = try Self.backgroundReplies(client)
        #expect(try client.request("COPY big to=notes").status.hasPrefix("OK COPY sentences=2 to=notes revision="))
        #expect(try client.request("GET notes").literals.first
            == Array("Sentence number 0 is here. Sentence number \(number) is here.".utf8))
        #expect(try client.request("SELECT big 5 10").status == "OK SELECT added sentence=0 selected=1")
        #expect(try client.request("MOVE big to=notes").status.hasPrefix("OK MOVE sentences=1 to=notes revision="))
        #expect(try client.request("GET notes").literals.first
            == Array("Sentence number 0 is here. Sentence number \(number) is here.\nSentence number 0 is here.".utf8))
        #expect(try client.request("GET big").literals.first == Array(text.dropFirst("Sentence number 0 is here. ".count).utf8))
        // COPY, MOVE and the GET of the large source.
        #expect(try Self.backgroundReplies(client) - before == 3)
    }

    /// With the SQLite store the write itself is deferred too: an ATTACH
    /// and a MOVE laid out and built off the loop are still stored before
    /// they are acknowledged, and there after a restart.
    @Test func offLoopWritesAreStoredBeforeTheyAreAcknowledged() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-heavy-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = Self.prose(sentences: 2200)
        do {
            let daemon = try Daemon(["--data-dir", directory.path, "--log-level", "warn"])
            let client = try BulkClient(port: daemon.port)
            client.send(bytes: Self.put("big", text))
            #expect(try client.readReply().status.hasPrefix("OK PUT"))
            #expect(try client.request("VIEW big width=300 line-height=20").status.hasPrefix("OK VIEW"))
            client.send("@a ATTACH big anim at=end 30 30\n@s SELECT big 5 10\n@m MOVE big to=notes\n@p PING\n")
            #expect(try client.readReply().status.hasPrefix("@a OK ATTACH name=anim offset=\(text.utf16.count) rect="))
            #expect(try client.readReply().status == "@s OK SELECT added sentence=0 selected=1")
            let move = try client.readReply().status
            // The store's revisions: PUT 1, ATTACH 2, then the MOVE's target and source.
            #expect(move.hasPrefix("@m OK MOVE sentences=1 to=notes revision=3 source-revision=4"), "\(move)")
            #expect(try client.readReply().status == "@p OK PONG")
            #expect(daemon.stop() == 0)
        }
        let daemon = try Daemon(["--data-dir", directory.path, "--log-level", "warn"])
        let client = try BulkClient(port: daemon.port)
        #expect(try client.request("GET notes").literals.first == Array("Sentence number 0 is here.".utf8))
        let big = try client.request("GET big")
        #expect(big.literals.first == Array(text.dropFirst("Sentence number 0 is here. ".count).utf8))
        #expect(big.status.hasSuffix(" attachments=1"))
    }

    @Test func listOfManyDocumentsInByteOrder() throws {
        let daemon = try Daemon(["--log-level", "warn"])
        let client = try BulkClient(port: daemon.port)
        let ids = (0..<300).map { "d\($0)" }
        client.send(ids.map { "PUT \($0) \"One. Two.\"\n" }.joined())
        for _ in ids { #expect(try client.readReply().status.hasPrefix("OK PUT")) }
        let before = try Self.backgroundReplies(client)
        let list = try client.request("LIST")
        #expect(list.status == "OK LIST 300")
        let sorted = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        // Each PUT took the store's next revision, in the order sent.
        let revisions = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0 + 1) })
        #expect(list.lines.dropLast() == sorted.map { "* id=\($0) revision=\(revisions[$0] ?? 0) bytes=9 length=9 sentences=2 paragraphs=1 lang=en languages=en rules=en mode=reader attachments=0" }[...])
        #expect(try Self.backgroundReplies(client) - before == 1)
        // With a prefix: the 111 ids starting with d1, also read off the loop
        // (which ids match is found there too).
        let some = try client.request("LIST d1")
        #expect(some.status == "OK LIST 111")
        #expect(some.lines.first?.hasPrefix("* id=d1 ") == true)
        #expect(some.lines.dropLast().last?.hasPrefix("* id=d199 ") == true)
        #expect(try Self.backgroundReplies(client) - before == 2)
        // A document deleted and one added since are listed as they are now.
        #expect(try client.request("DEL d5").status == "OK DEL id=d5")
        #expect(try client.request("PUT e \"One. Two.\"").status.hasPrefix("OK PUT"))
        let now = try client.request("LIST")
        #expect(now.status == "OK LIST 300")
        #expect(!now.lines.contains { $0.hasPrefix("* id=d5 ") } && now.lines.dropLast().last?.hasPrefix("* id=e ") == true)
    }

    /// Built off the loop, a reply is still framed as its request was.
    @Test func largeRepliesToRedisClientsAreRESP() throws {
        let daemon = try Daemon(["--log-level", "warn"])
        let client = try BulkClient(port: daemon.port)
        let text = Self.prose(sentences: 2200)
        client.send(bytes: Self.put("big", text))
        #expect(try client.readReply().status.hasPrefix("OK PUT"))
        let before = try Self.backgroundReplies(client)
        client.send("*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n*2\r\n$9\r\nSENTENCES\r\n$3\r\nbig\r\n*1\r\n$4\r\nPING\r\n")
        #expect(try client.readLine() == "*2")
        #expect(try client.readLine() == "$\(text.utf8.count)")
        #expect(try client.readBytes(count: text.utf8.count + 2) == Array(text.utf8) + [0x0D, 0x0A])
        #expect(try client.readLine()?.hasPrefix("+GET id=big revision=1 ") == true)
        #expect(try client.readLine() == "*2201")
        for n in 0..<2200 {
            let length = try #require(try client.readLine().flatMap { Int($0.dropFirst()) })
            let line = String(decoding: try client.readBytes(count: length + 2).dropLast(2), as: UTF8.self)
            if n == 5 { #expect(line == "sentence 5 range=135..162 content=135..161 paragraph=0 lang=en text=\"Sentence number 5 is here.\"") }
        }
        #expect(try client.readLine() == "+SENTENCES 2200 of 2200")
        #expect(try client.readLine() == "+PONG")
        #expect(try Self.backgroundReplies(client) - before == 2)
    }
}

/// A blocking client for large replies: lines are read without moving the
/// buffer each time, and literals (`* {N}`) are read as bytes, so a reply
/// of megabytes or of hundreds of thousands of lines is read in linear time.
final class BulkClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// One reply: its lines (data lines and the final one; a literal's
    /// header line is kept, its bytes go to `literals`).
    struct Reply {
        var lines: [String] = []
        var literals: [[UInt8]] = []
        var status: String { lines.last ?? "" }
    }

    init(port: UInt16, timeoutSeconds: Int = 20) throws {
        fd = try LineClient.connectedSocket(port: port, timeoutSeconds: timeoutSeconds)
    }

    deinit { Glibc.close(fd) }

    func send(bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    func send(_ text: String) { send(bytes: Array(text.utf8)) }

    private func fill() throws {
        if start > 1 << 20 {
            buffer.removeSubrange(..<start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { throw Failure(description: "stream ended or timed out (errno \(errno))") }
        buffer.append(contentsOf: chunk[0..<n])
    }

    func readLine() throws -> String? {
        var scanned = start
        while true {
            if let lf = buffer[scanned...].firstIndex(of: 0x0A) {
                var end = lf
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = lf + 1
                return line
            }
            // Scanned so far, relative to the line's start (filling may move it).
            let seen = buffer.count - start
            try fill()
            scanned = start + seen
        }
    }

    func readBytes(count: Int) throws -> [UInt8] {
        while buffer.count - start < count { try fill() }
        let bytes = Array(buffer[start..<start + count])
        start += count
        return bytes
    }

    func readReply() throws -> Reply {
        var reply = Reply()
        while let line = try readLine() {
            reply.lines.append(line)
            if line.hasPrefix("* {"), line.hasSuffix("}"), let count = Int(line.dropFirst(3).dropLast()) {
                reply.literals.append(try readBytes(count: count))
                _ = try readBytes(count: 2)
                continue
            }
            if LineClient.isFinal(line) { return reply }
        }
        throw Failure(description: "connection closed in the middle of a reply")
    }

    func request(_ line: String) throws -> Reply {
        send(line + "\n")
        return try readReply()
    }
}
