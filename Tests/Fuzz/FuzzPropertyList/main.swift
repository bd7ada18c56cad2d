import FuzzSupport

@testable import AppFlipArtifacts

/// The property-list gates (size, format, the XML nesting scan and the binary structure walk) and Foundation
/// behind them, on any bytes: none may trap, loop or overflow the stack; whatever the gates pass, Foundation
/// reads or refuses with an error.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    if let value = try? PropertyListReader.read(bytes, file: "fuzz") {
        _ = value.json
        _ = value.text
    }
    _ = try? BinaryPropertyListShape.check(bytes, file: "fuzz", base: 0, maximumDepth: 8, maximumValues: 64)
    _ = try? XMLPropertyListShape.check(bytes, file: "fuzz", base: 0, maximumDepth: 8, maximumValues: 64)
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
