// lectern-load: flag parsing and wiring; the work is LoadRunner and the scenarios.

import Foundation

let action: LoadOptions.Action
do {
    action = try LoadOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("lectern-load: \(error)\n".utf8))
    exit(64)  // EX_USAGE
}

switch action {
case .help:
    print(LoadOptions.helpText, terminator: "")
case .run(var options):
    if options.isFanout && options.rate == 0 {
        // Closed-loop taps (or publishes) would bury the watchers; fan-out is paced.
        options.rate = 100
    }
    do {
        let result = try ThreadedLoad.run(options)
        let report = LoadReport(options: options, result: result)
        print(options.json ? report.json : report.text, terminator: "")
        exit(result.statistics.errors.total == 0 ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("lectern-load: \(error)\n".utf8))
        exit(64)
    }
}
