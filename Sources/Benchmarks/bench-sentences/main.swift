// bench-sentences: figures for Lectern's sentence engine (prints, asserts nothing).
//
//   bench-sentences quality [--data DIR] [--kss DIR]   accuracy beside ICU
//   bench-sentences ud-dev [--ud-dev DIR] [--failures [N]] UD dev sets, whole set as one text
//   bench-sentences speed [--data DIR] [--kss DIR] [--bytes N] [--rounds N]
//
// Build in release: swift build -c release && .build/release/bench-sentences speed
import Foundation

let arguments = BenchArguments(CommandLine.arguments.dropFirst())
switch arguments.command {
case "quality":
    QualityBenchmark(arguments: arguments).run()
case "ud-dev":
    if !QualityBenchmark(arguments: arguments).runUDDev() { exit(1) }
case "speed":
    SpeedBenchmark(arguments: arguments).run()
default:
    print("usage: bench-sentences quality|ud-dev|speed [--data DIR] [--kss DIR] [--ud-dev DIR] [--bytes N] [--rounds N]")
    exit(2)
}
