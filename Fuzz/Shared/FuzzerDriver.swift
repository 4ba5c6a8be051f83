import Foundation

// Shared by the fuzz targets: each target's folder links to this file.

#if FUZZING
/// libFuzzer's driver, from the fuzzer runtime that `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32
#endif

/// libFuzzer's entry: its `count` bytes at `bytes` handed to the target's `checkInput` (none at
/// all when `bytes` is null), and 0, the answer libFuzzer expects.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    checkInput(Data(bytes: bytes, count: count))
    return 0
}

/// A fuzz target's `main`: built with the fuzzer (`-DFUZZING`) libFuzzer drives
/// `fuzzerTestOneInput`; built plainly, `checkInput` replays each file named on the command line.
/// Each target's own file defines only `checkInput(_:)`, what any input must satisfy.
@main
enum FuzzTarget {
    static func main() throws {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzerTestOneInput))
        #else
        for path in CommandLine.arguments.dropFirst() {
            checkInput(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #endif
    }
}
