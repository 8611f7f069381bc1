// TokenFileTests.swift: the token file must be private and hold one word on
// one line; LECTERN_AUTH_TOKEN obeys the same rules.

import Foundation
import Testing
@testable import LecternServer

@Suite struct TokenFileTests {
    /// A token file with exactly these bytes and this mode; removed by the caller.
    private func tokenFile(_ bytes: [UInt8], mode: Int = 0o600) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-token-\(UUID().uuidString.prefix(8))").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    private func tokenFile(_ text: String, mode: Int = 0o600) throws -> String {
        try tokenFile(Array(text.utf8), mode: mode)
    }

    /// The sentence reading `path` fails with, or nil if it is accepted.
    private func refusal(_ path: String) -> String? {
        do {
            _ = try AccessControl.readTokenFile(path)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aFileOthersCanReadOrWriteIsRefusedWithTheChmodToRun() throws {
        for mode in [0o644, 0o640, 0o604, 0o660, 0o602, 0o610] {
            let path = try tokenFile("s3cret\n", mode: mode)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let sentence = refusal(path)
            #expect(sentence?.contains("can be read or written by group or others (mode 0\(String(mode, radix: 8)))") == true, "\(sentence ?? "accepted")")
            #expect(sentence?.contains("run: chmod 600 \(path)") == true)
        }
        for mode in [0o600, 0o400] {
            let path = try tokenFile("s3cret\n", mode: mode)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(try AccessControl.readTokenFile(path) == Array("s3cret".utf8))
        }
    }

    @Test func oneLineWithOneOptionalLineEndingIsTheToken() throws {
        for content in ["s3cret", "s3cret\n", "s3cret\r\n"] {
            let path = try tokenFile(content)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(try AccessControl.readTokenFile(path) == Array("s3cret".utf8), "\(content.debugDescription)")
        }
        // Quotes, backslashes and non-ASCII letters are fine: they are printable.
        let path = try tokenFile("ça-\"va\"\\bien\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try AccessControl.readTokenFile(path) == Array("ça-\"va\"\\bien".utf8))
    }

    @Test func whatIsNotOneWordOnOneLineIsRefusedWithASentence() throws {
        let cases: [([UInt8], String)] = [
            (Array("".utf8), "is empty"),
            (Array("\n".utf8), "is empty"),
            (Array("   \n".utf8), "holds only whitespace"),
            (Array("\t \u{A0}".utf8), "holds only whitespace"),
            (Array("s3cret\n\n".utf8), "more than one line"),
            (Array("first\nsecond\n".utf8), "more than one line"),
            (Array("s3cret\r".utf8), "more than one line"),
            (Array("correct horse\n".utf8), "whitespace in the token (U+0020 at character 8)"),
            (Array(" s3cret\n".utf8), "whitespace in the token (U+0020 at character 1)"),
            (Array("tab\there".utf8), "whitespace in the token (U+0009"),
            (Array("no\u{2003}break".utf8), "whitespace in the token (U+2003"),
            (Array("bell\u{07}".utf8), "control character in the token (U+0007"),
            (Array("zero\u{200B}width".utf8), "control character in the token (U+200B"),
            ([0x61, 0xFF, 0x62], "is not UTF-8"),
            (Array(repeating: UInt8(ascii: "x"), count: AccessControl.maximumTokenLength + 1), "more than 1024 bytes"),
        ]
        for (bytes, expected) in cases {
            let path = try tokenFile(bytes)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let sentence = refusal(path)
            #expect(sentence?.hasPrefix("the token file \(path) ") == true, "\(bytes)")
            #expect(sentence?.contains(expected) == true, "\(bytes): \(sentence ?? "accepted")")
        }
        let longest = try tokenFile(Array(repeating: UInt8(ascii: "x"), count: AccessControl.maximumTokenLength))
        defer { try? FileManager.default.removeItem(atPath: longest) }
        #expect(refusal(longest) == nil)
    }

    @Test func aDirectoryOrAMissingFileIsRefused() throws {
        #expect(refusal("/nonexistent/lectern-token")?.contains("cannot read the token file /nonexistent/lectern-token") == true)
        #expect(refusal(FileManager.default.temporaryDirectory.path)?.contains("is not a regular file") == true)
    }

    @Test func theEnvironmentTokenFollowsTheSameRules() throws {
        func environmentRefusal(_ value: String) -> String? {
            do {
                _ = try AccessControl(configuration: ServerConfiguration(), environment: ["LECTERN_AUTH_TOKEN": value])
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(environmentRefusal("s3cret") == nil)
        #expect(environmentRefusal("")?.contains("LECTERN_AUTH_TOKEN is empty") == true)
        #expect(environmentRefusal("two words")?.contains("LECTERN_AUTH_TOKEN has whitespace in the token") == true)
        #expect(environmentRefusal("s3cret\n")?.contains("LECTERN_AUTH_TOKEN holds more than one line") == true)
        #expect(environmentRefusal("   ")?.contains("LECTERN_AUTH_TOKEN holds only whitespace") == true)
        #expect(environmentRefusal("esc\u{1B}")?.contains("control character") == true)
    }

    @Test func theDaemonRefusesToStartWithAReadableTokenFile() throws {
        let path = try tokenFile("s3cret\n", mode: 0o644)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let refused = try runUntilExit(["--auth-token-file", path])
        #expect(refused.status == 1)
        #expect(refused.log.contains("event=start_failed"))
        #expect(refused.log.contains("chmod 600 \(path)"))
        // Fixed as the sentence says, it starts.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let daemon = try Daemon(["--auth-token-file", path])
        #expect(try daemon.connect().request("AUTH s3cret") == ["OK AUTH"])
    }

    @Test func theDaemonRefusesATokenWithSpacesFromTheEnvironment() throws {
        let refused = try runUntilExit([], environment: ["LECTERN_AUTH_TOKEN": "correct horse"])
        #expect(refused.status == 1)
        #expect(refused.log.contains("LECTERN_AUTH_TOKEN has whitespace in the token"))
    }
}
