import FuzzSupport

@testable import AppFlipArtifacts

/// The .ipa reader (the zip central directory, the local headers, the bounded inflater, then every reader
/// inside) on any bytes: it must not trap, and must end, whatever the archive claims.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let source = MemoryBytes(name: "fuzz.ipa", bytes: fuzzBytes(start, count))
    if let app = try? IOSArtifacts.read(source, kind: .ipa) {
        _ = app.appIDs
        _ = app.associatedDomains
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
