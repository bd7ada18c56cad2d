import AppFlipArtifacts
import AppFlipCore
import FuzzSupport

/// The APK Signing Block reader on any ID-value pairs: the input is wrapped as the block of an otherwise
/// empty APK (its sizes, magic, an empty central directory and an end record pointing at it), so that every
/// input reaches the pairs, the v2, v3 and v3.1 signers and the lineage. It returns or throws, never traps;
/// the current and past keys it reports are fingerprints of certificates it read.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let pairs = fuzzBytes(start, count)
    let size = UInt64(pairs.count + 24)
    func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (UInt64($0) * 8) & 0xFF) } }
    var apk = le64(size) + pairs + le64(size) + Array("APK Sig Block 42".utf8)
    let directory = UInt32(apk.count)
    apk += [0x50, 0x4B, 0x05, 0x06, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + (0..<4).map { UInt8(directory >> ($0 * 8) & 0xFF) } + [0, 0]
    guard let zip = try? ZipDirectory(source: MemoryBytes(name: "fuzz", bytes: apk)),
        let block = try? APKSigningBlock(directory: zip),
        let signers = try? APKSignatures.schemeSigners(block)
    else { return 0 }
    let signatures = APKSignatures(signers: signers, blockIDs: block.pairs.map(\.id))
    let known = Set(signers.flatMap { $0.certificates.map(\.sha256) + $0.lineage.map(\.certificate.sha256) })
    for sdk in [nil, 24, 28, 33] {
        let history = signatures.history(sdk: sdk)
        fuzzCheck(history.all.allSatisfy(known.contains), "a fingerprint in the history that no certificate has")
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
