import Foundation

// Shared by the fuzz targets: each target's folder links to this file.

#if FUZZING
/// libFuzzer's driver, from the fuzzer runtime that `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32
#endif

/// A fuzz target's `main`: built with the fuzzer (`-DFUZZING`) libFuzzer drives
/// `testOneInput`; built plainly, `check` replays each file named on the command line.
func fuzzOrReplay(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32,
                  check: (Data) -> Void) throws {
    #if FUZZING
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(runFuzzerDriver(&argc, &argv, testOneInput))
    #else
    for path in CommandLine.arguments.dropFirst() {
        check(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    #endif
}
