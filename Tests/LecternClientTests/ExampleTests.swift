// ExampleTests.swift: lectern-example tells its whole story against a live daemon.

import Foundation
import Testing

@Suite struct ExampleTests {
    @Test func exampleRunsEndToEnd() throws {
        let daemon = try LiveDaemon()
        let (status, text) = try Self.run(["--port", String(daemon.port), "--cps", "500"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("PUT example: 5 sentences, 105 UTF-16 units, language ko"))
        #expect(text.contains("TAP (60, 30): sentence 1"))
        #expect(text.contains("String.Index range gives back: 창가 자리에 앉아 오래된 소설을 펼쳤다"))
        #expect(text.contains("rect 1:"))
        #expect(text.contains("ATTACH 30×30 after the last word: offset 105, line 4"))
        #expect(text.contains("우리는 근처 식당에서 국수를 먹었다.\n"))
        #expect(text.contains("ticks for 105 graphemes"))
    }

    /// The example tells the same story with each sample document.
    @Test(arguments: ["korean", "english", "russian", "japanese"])
    func exampleRunsWithEverySample(sample: String) throws {
        let daemon = try LiveDaemon()
        let path = ReadmeSnippetTests.root.appendingPathComponent("examples/samples/\(sample).txt").path
        let (status, text) = try Self.run(["--port", String(daemon.port), "--cps", "1000", "--file", path])
        #expect(status == 0, "\(text)")
        let fileText = try String(contentsOfFile: path, encoding: .utf8)
        let sampleText = fileText.trimmingCharacters(in: .whitespacesAndNewlines)
        // Ticks may be coalesced if this reader falls behind, but the whole text is shown.
        #expect(text.contains("ticks for \(fileText.count) graphemes"), "\(text)")
        #expect(text.contains(sampleText))
        // The file is put as it is, final line end and all: the box still
        // follows the last word, on the last line of text (issue 18 item 5).
        #expect(text.contains("ATTACH 30×30 after the last word: offset \(sampleText.utf16.count), "), "\(text)")
    }

    /// Runs lectern-example with `arguments`; returns its exit status and output.
    static func run(_ arguments: [String]) throws -> (Int32, String) {
        let example = Process()
        example.executableURL = LiveDaemon.executable.deletingLastPathComponent().appendingPathComponent("lectern-example")
        example.arguments = arguments
        let output = Pipe()
        example.standardOutput = output
        example.standardError = output
        try example.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        example.waitUntilExit()
        return (example.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `--help` is a request for the usage, not a flag missing its value.
    @Test func exampleHelpPrintsUsageAndSucceeds() throws {
        for flag in ["--help", "-h"] {
            let (status, text) = try Self.run([flag])
            #expect(status == 0, "\(text)")
            #expect(text.contains(ExampleUsage.line), "\(text)")
            #expect(text.contains("--file PATH"))
            #expect(!text.contains("needs a value"))
        }
    }

    /// A `--file` that cannot be read is one line naming it, exit 1, with
    /// a daemon running (Foundation's error printed whole was a screenful
    /// of `NSCocoaErrorDomain` user info).
    @Test func exampleNamesAFileItCannotRead() throws {
        let daemon = try LiveDaemon()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-example-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.txt").path
        let latin1 = directory.appendingPathComponent("latin1.txt")
        try Data([0x43, 0x61, 0x66, 0xE9, 0x2E, 0x0A]).write(to: latin1)  // "Café." in Latin-1
        let cases = [
            (missing, "lectern-example: --file \(missing): no such file\n"),
            (directory.path, "lectern-example: --file \(directory.path): is a directory, not a text file\n"),
            (latin1.path, "lectern-example: --file \(latin1.path): not UTF-8 text\n"),
        ]
        for (path, expected) in cases {
            let (status, text) = try Self.run(["--port", String(daemon.port), "--file", path])
            #expect(status == 1, "\(text)")
            #expect(text.contains(expected), "\(text)")
            #expect(text.split(separator: "\n").filter { $0.hasPrefix("lectern-example:") }.count == 1, "\(text)")
            #expect(!text.contains("NSCocoaErrorDomain"), "\(text)")
        }
    }

    @Test func exampleRejectsUnknownFlags() throws {
        let (status, text) = try Self.run(["--colour", "blue"])
        #expect(status == 1)
        #expect(text.contains("unknown flag --colour"))
    }
}

/// The first line of lectern-example's usage, as its `--help` prints it.
enum ExampleUsage {
    static let line = "usage: lectern-example [--host HOST] [--port PORT | --unix-socket PATH] [--cps N] [--file PATH [--lang CODE]]"
}
