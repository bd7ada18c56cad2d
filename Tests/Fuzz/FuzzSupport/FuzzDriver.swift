import CLibFuzzer
import Glibc

/// Runs libFuzzer with the command line's options on `testOneInput`, then exits with its status.
///
/// SwiftPM renames an executable's entry point and points `main` at it, so a target cannot rely on the `main`
/// that `-sanitize=fuzzer` would link; each target's main.swift calls this instead.
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
