// FuzzCorpusTests.swift: every input in the fuzz seed corpus, replayed
// through the daemon's request path in process, the way the fuzzer runs it.

import Foundation
import Testing
import LecternServer
import LecternServerHarness

@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzCorpus")

    @Test func everyCorpusEntryRunsAndIsAnswered() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.corpus, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        #expect(files.count >= 20)
        for file in files {
            let input = [UInt8](try Data(contentsOf: file))
            let output = input.withUnsafeBytes { Fuzzing.feed($0) }
            // Every entry has at least one request line: something must come back.
            #expect(!output.isEmpty, "\(file.lastPathComponent) got no reply")
            // Replies are lines; the last one ends with CRLF.
            #expect(output.suffix(2) == [0x0D, 0x0A], "\(file.lastPathComponent)")
        }
        // The in-process daemon still answers after all of them.
        let ping = Array("PING\n".utf8).withUnsafeBytes { Fuzzing.feed($0) }
        #expect(String(decoding: ping, as: UTF8.self) == "OK PONG\r\n")
    }
}
