import AppFlipArtifacts
import AppFlipCore
import FuzzSupport

/// The resources.arsc reader on any bytes: indexing and looking up resources return or throw, never trap;
/// a resource found has a name and only values its configurations carry.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzBytes(start, count)
    guard let table = try? ResourceTable(input, file: "fuzz") else { return 0 }
    var ids: [UInt32] = (0..<8).flatMap { type in (0..<4).map { entry in 0x7F00_0000 | UInt32(type) << 16 | UInt32(entry) } }
    if input.count >= 4 { ids.append(UInt32(input[0]) | UInt32(input[1]) << 8 | UInt32(input[2]) << 16 | UInt32(input[3]) << 24) }
    for id in ids {
        guard let entry = try? table.entry(id) else { continue }
        fuzzCheck(entry.id == id && entry.name.contains("/"), "entry \(id) named \(entry.name)")
        for value in entry.values { _ = value.configuration.description }
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
