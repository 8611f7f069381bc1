// ExampleOptions.swift: the example's command-line flags.

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

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let usage =
        "usage: lectern-example [--host HOST] [--port PORT | --unix-socket PATH] [--cps N] [--file PATH [--lang CODE]]"

    init(arguments: [String]) throws {
        var host = "127.0.0.1"
        var port: UInt16 = 7878
        var socketPath: String?
        var rest = arguments[...]
        while let flag = rest.popFirst() {
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
    }
}
