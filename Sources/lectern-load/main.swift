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
    if options.scenario == .fanout && options.rate == 0 {
        // Closed-loop taps would bury the watchers; fan-out is paced.
        options.rate = 100
    }
    let scenario: LoadScenario
    switch options.scenario {
    case .raw: scenario = RawScenario(options: options)
    case .tap: scenario = TapScenario(options: options)
    case .mix: scenario = MixScenario(options: options)
    case .fanout: scenario = FanoutScenario(options: options)
    case .type: scenario = TypewriterScenario(options: options)
    }
    do {
        let runner = try LoadRunner(options: options, scenario: scenario)
        runner.run()
        let report = LoadReport(runner: runner)
        print(options.json ? report.json : report.text, terminator: "")
        exit(runner.statistics.errors.total == 0 ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("lectern-load: \(error)\n".utf8))
        exit(64)
    }
}
