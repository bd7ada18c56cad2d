import AppFlipArtifacts
import AppFlipCore
import FuzzSupport

/// The Android App Bundle's protobuf readers on any bytes: the manifest (`XmlNode`) and the resource table
/// (`ResourceTable`) are decoded by swift-protobuf within their depth limits and read into the manifest
/// model; they return or throw, never trap, and a manifest read twice is the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzBytes(start, count)
    let table = try? ProtoResourceTable(input, file: "fuzz")
    _ = try? table?.entry(0x7F02_0000)
    let limits = XMLLimits(maxDepth: 64, maxElements: 2_000, maxAttributes: 256)
    guard let root = try? ProtoXMLReader.read(input, file: "fuzz", limits: limits) else { return 0 }
    let manifest = try? AndroidManifestReader.read(root, form: .proto, resources: table, file: "fuzz")
    fuzzCheck(
        (try? AndroidManifestReader.read(root, form: .proto, resources: table, file: "fuzz")) == manifest,
        "a second read gives another manifest"
    )
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
