import AppFlipArtifacts
import AppFlipCore
import Foundation
import FuzzSupport

/// The provisioning-profile reader (CMS, then the property list) on any bytes: it must not trap, and a profile it
/// reads must report as JSON that parses back to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard let profile = try? ProvisioningProfile(bytes: bytes, file: "fuzz") else { return 0 }
    let report = IOSArtifactReport(
        file: "fuzz",
        kind: .provisioningProfile,
        app: IOSApp(profile: .init(entry: "fuzz", value: profile)),
        now: Date(timeIntervalSince1970: 0)
    )
    let json = report.json
    fuzzCheck((try? JSONValue(parsing: Array(json.compactJSON.utf8))) == json, "the report's JSON does not parse back")
    _ = report.textLines
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
