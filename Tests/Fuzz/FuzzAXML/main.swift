import AppFlipArtifacts
import AppFlipCore
import FuzzSupport

/// Android's binary XML reader and the manifest reader on any bytes: they return or throw an
/// `ArtifactError`, never trap; a document read twice gives the same tree and the same manifest.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzBytes(start, count)
    let limits = XMLLimits(maxDepth: 64, maxElements: 2_000, maxAttributes: 256)
    guard let root = try? BinaryXMLReader.read(input, file: "fuzz", limits: limits) else { return 0 }
    fuzzCheck((try? BinaryXMLReader.read(input, file: "fuzz", limits: limits)) == root, "a second read gives another tree")
    let manifest = try? AndroidManifestReader.read(root, form: .binary, resources: nil, file: "fuzz")
    if let manifest {
        fuzzCheck(
            (try? AndroidManifestReader.read(root, form: .binary, resources: nil, file: "fuzz")) == manifest,
            "a second read gives another manifest"
        )
        _ = manifest.identity(fingerprints: []).verificationHosts
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
