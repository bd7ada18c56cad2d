import FuzzSupport

@testable import AppFlipArtifacts

/// The Mach-O and code-signature reader on any bytes: reading must not trap, and the streaming reader an
/// archive uses, fed in chunks of a size the first byte picks, must find the same file or fail with the same
/// error as the reader over the whole bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let whole: Result<MachOFile, ArtifactError> = Result { () throws(ArtifactError) in try MachOFile(bytes: bytes, name: "fuzz") }
    let chunk = 1 + Int(bytes.first ?? 0) * 37
    let streamed = Result { () throws(ArtifactError) -> MachOFile in
        var stream = try MachOStream(size: bytes.count, name: "fuzz")
        var offset = 0
        while offset < bytes.count {
            try stream.consume(Array(bytes[offset..<min(bytes.count, offset + chunk)]))
            offset += chunk
        }
        return try stream.finish()
    }
    switch (whole, streamed) {
    case (.success(let file), .success(let other)):
        fuzzCheck(file == other, "the streamed read found another file")
        _ = file.primarySlice?.signature?.entitlements?.associatedDomains
    case (.failure(let error), .failure(let other)):
        fuzzCheck(error == other, "the readers failed differently: \(error) / \(other)")
    default:
        fuzzCheck(false, "one reader succeeded where the other failed: \(whole) / \(streamed)")
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
