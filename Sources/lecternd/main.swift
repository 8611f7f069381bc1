// lecternd: flag parsing and wiring only; the daemon is LecternServer.

import Foundation
import LecternServer

let action: ServerConfiguration.Action
do {
    action = try ServerConfiguration.parse(
        arguments: Array(CommandLine.arguments.dropFirst()),
        environment: ProcessInfo.processInfo.environment)
} catch {
    FileHandle.standardError.write(Data("lecternd: \(error)\n".utf8))
    exit(64)  // EX_USAGE
}

switch action {
case .help:
    print(ServerConfiguration.helpText(), terminator: "")
case .version:
    print("lecternd \(Lectern.version)")
case .run(let configuration):
    Log.minimumLevel = configuration.logLevel
    do {
        let server = try Server(configuration: configuration, environment: ProcessInfo.processInfo.environment)
        try server.run()
    } catch {
        Log.error("start_failed", ["reason": "\(error)"])
        exit(1)
    }
}
