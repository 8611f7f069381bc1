// ExampleTests.swift: lectern-example tells its whole story against a live daemon.

import Foundation
import Testing

@Suite struct ExampleTests {
    @Test func exampleRunsEndToEnd() throws {
        let daemon = try LiveDaemon()
        let example = Process()
        example.executableURL = LiveDaemon.executable.deletingLastPathComponent().appendingPathComponent("lectern-example")
        example.arguments = ["--port", String(daemon.port), "--cps", "500"]
        let output = Pipe()
        example.standardOutput = output
        example.standardError = output
        try example.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        example.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(example.terminationStatus == 0, "\(text)")
        #expect(text.contains("PUT example-ko: 5 sentences, 105 UTF-16 units, language ko"))
        #expect(text.contains("TAP (60, 30): sentence 1"))
        #expect(text.contains("String.Index range gives back: 창가 자리에 앉아 오래된 소설을 펼쳤다"))
        #expect(text.contains("rect 1:"))
        #expect(text.contains("ATTACH 30×30 after the last word: offset 105, line 4"))
        #expect(text.contains("우리는 근처 식당에서 국수를 먹었다.\n"))
        #expect(text.contains("105 ticks for 105 graphemes"))
    }

    @Test func exampleRejectsUnknownFlags() throws {
        let example = Process()
        example.executableURL = LiveDaemon.executable.deletingLastPathComponent().appendingPathComponent("lectern-example")
        example.arguments = ["--colour", "blue"]
        example.standardError = FileHandle.nullDevice
        example.standardOutput = FileHandle.nullDevice
        try example.run()
        example.waitUntilExit()
        #expect(example.terminationStatus == 1)
    }
}
