// lectern-fuzz: libFuzzer driving the daemon's request path (built by
// scripts/fuzz with -sanitize=fuzzer -DFUZZING), or, built normally, a
// replayer of corpus files: `lectern-fuzz FILE|DIR …`.

import Foundation
import LecternServerHarness

#if FUZZING
/// libFuzzer's driver, for programs that have their own `main` (SwiftPM
/// names the executable's entry point itself, so libFuzzer's cannot be used).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    Fuzzing.feed(UnsafeRawBufferPointer(start: data, count: size))
    return 0
})
#else
var files: [String] = []
for argument in CommandLine.arguments.dropFirst() {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
        FileHandle.standardError.write(Data("lectern-fuzz: no such file \(argument)\n".utf8))
        exit(2)
    }
    if isDirectory.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
        files += names.sorted().map { argument + "/" + $0 }
    } else {
        files.append(argument)
    }
}
for file in files {
    let bytes = [UInt8](FileManager.default.contents(atPath: file) ?? Data())
    let reply = bytes.withUnsafeBytes { Fuzzing.feed($0) }
    print("\(file): \(bytes.count) bytes in, \(reply.count) bytes out")
}
#endif
