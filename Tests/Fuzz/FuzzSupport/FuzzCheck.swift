/// Stops the fuzzer with `message` when a property of the code under test does not hold.
///
/// libFuzzer records a crash, with the input that caused it, for any trap; `fatalError` is used rather than
/// `precondition` because an optimized build drops a precondition's message, and the message says which
/// property broke.
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz property broken: \(message())") }
}

/// The fuzzer's input as bytes, for the targets that read it as a whole.
public func fuzzBytes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let start, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: start, count: count))
}
