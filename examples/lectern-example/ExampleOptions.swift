// ExampleOptions.swift: the example's command-line flags.

import Foundation
import LecternClient

/// Where the daemon is: `--host`/`--port` (default 127.0.0.1:7878) or
/// `--unix-socket PATH`; `--cps N` sets the typewriter's pace; `--file PATH`
/// reads the text from a file (such as examples/samples/*.txt) and
/// `--lang CODE` names its language (default: detected).
struct ExampleOptions {
    var endpoint = Endpoint.tcp(host: "127.0.0.1", port: 7878)
    var charactersPerSecond = 25.0
    var file: String?
    var language: String?
    /// `--help` or `-h`: print ``help`` and exit 0, nothing else.
    var wantsHelp = false

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let usage =
        "usage: lectern-example [--host HOST] [--port PORT | --unix-socket PATH] [--cps N] [--file PATH [--lang CODE]]"

    /// What `--help` prints.
    static let help = """
        lectern-example: the Lectern story from Swift against a running lecternd: PUT a paragraph,
        VIEW it 320 points wide, TAP a point, ATTACH a box after the last word, TYPE it in the terminal.

        \(usage)

          --host HOST         the daemon's address (default 127.0.0.1)
          --port PORT         its TCP port (default 7878)
          --unix-socket PATH  connect to its Unix socket instead (lecternd --unix-socket)
          --cps N             typewriter pace in graphemes per second (default 25)
          --file PATH         the text to put, UTF-8 (default: a Korean paragraph); see examples/samples/
          --lang CODE         the file's language (default: detected from its script)
          --help, -h          this text
        """

    init(arguments: [String]) throws {
        var host = "127.0.0.1"
        var port: UInt16 = 7878
        var socketPath: String?
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" {
                wantsHelp = true
                return
            }
            guard let value = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value\n\(Self.usage)") }
            switch flag {
            case "--host": host = value
            case "--port":
                guard let number = UInt16(value) else { throw UsageError(description: "--port must be 0 to 65535, not \(value)") }
                port = number
            case "--unix-socket": socketPath = value
            case "--file": file = value
            case "--lang": language = value
            case "--cps":
                guard let cps = Double(value), cps > 0 else { throw UsageError(description: "--cps must be a positive number") }
                charactersPerSecond = cps
            default: throw UsageError(description: "unknown flag \(flag)\n\(Self.usage)")
            }
        }
        endpoint = socketPath.map { .unix(path: $0) } ?? .tcp(host: host, port: port)
        if let file { try Self.checkReadable(file) }
    }

    /// Fails with one line naming the file, before any connection is made.
    private static func checkReadable(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UsageError(description: "--file \(path): no such file")
        }
        guard !isDirectory.boolValue else { throw UsageError(description: "--file \(path): is a directory, not a text file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw UsageError(description: "--file \(path): permission denied")
        }
    }

    /// One line for an error reading `--file` (Foundation's own spells out
    /// its whole `NSCocoaErrorDomain` user info), or nil for other errors.
    static func fileErrorMessage(_ error: Error, file: String?) -> String? {
        guard let file, let error = error as? CocoaError else { return nil }
        switch error.code {
        case .fileReadInapplicableStringEncoding, .fileReadCorruptFile:
            return "--file \(file): not UTF-8 text"
        case .fileReadNoSuchFile:
            return "--file \(file): no such file"
        case .fileReadNoPermission:
            return "--file \(file): permission denied"
        default:
            return "--file \(file): cannot read it (\(error.code.rawValue))"
        }
    }
}
