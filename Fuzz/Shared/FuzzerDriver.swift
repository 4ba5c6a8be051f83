import Foundation

// Shared by the fuzz targets: each target's folder links to this file.

#if FUZZING
/// libFuzzer's driver, from the fuzzer runtime that `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32
#endif

/// What a fuzz target's `LLVMFuzzerTestOneInput` does: libFuzzer's `count` bytes at `bytes` handed to
/// `check` (none at all when `bytes` is null), and 0, the answer libFuzzer expects.
func checkFuzzInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int, with check: (Data) -> Void) -> Int32 {
    guard let bytes else { return 0 }
    check(Data(bytes: bytes, count: count))
    return 0
}

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
