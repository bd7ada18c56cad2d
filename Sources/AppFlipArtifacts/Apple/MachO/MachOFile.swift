/// A Mach-O executable, thin or universal (fat): each architecture's slice and its code signature.
public struct MachOFile: Sendable, Hashable {
    /// Whether the file is universal (a fat header and slices) rather than one thin Mach-O.
    public let isUniversal: Bool
    /// The slices in file order; one for a thin file.
    public let slices: [MachOSlice]

    /// The slice whose signature speaks for the app: arm64 (what every current iPhone runs), else arm64e, else the
    /// first signed slice.
    public var primarySlice: MachOSlice? {
        let signed = slices.filter { $0.signature != nil }
        return signed.first { $0.architecture == "arm64" } ?? signed.first { $0.architecture == "arm64e" } ?? signed.first
    }

    /// Whether two signed slices claim different entitlements.
    public var slicesDisagree: Bool {
        let claims = slices.compactMap { $0.signature?.entitlements }
        return claims.contains { $0 != claims[0] }
    }

    /// Reads the Mach-O file at `path`, only its headers, load commands and code signatures.
    public init(path: String) throws(ArtifactError) {
        self = try MachOScanner.read(FileBytes(path: path))
    }

    /// Reads a Mach-O file already in memory, named `name` in errors.
    public init(bytes: [UInt8], name: String) throws(ArtifactError) {
        self = try MachOScanner.read(MemoryBytes(name: name, bytes: bytes))
    }

    init(isUniversal: Bool, slices: [MachOSlice]) {
        self.isUniversal = isUniversal
        self.slices = slices
    }
}

/// One architecture's Mach-O image.
public struct MachOSlice: Sendable, Hashable {
    /// Where the slice starts in the file, and its size.
    public let offset: Int
    public let size: Int
    public let cpuType: Int32
    public let cpuSubtype: Int32
    /// The header's `filetype`: 2 is MH_EXECUTE.
    public let fileType: UInt32
    /// The platform of LC_BUILD_VERSION or LC_VERSION_MIN_*: `iOS`, `iOS simulator`, `macOS`…; nil without one.
    public let platform: String?
    /// The minimum OS version the slice names (`15.0`).
    public let minimumOS: String?
    /// LC_CODE_SIGNATURE's range, relative to the slice (`dataoff`, `datasize`); nil when unsigned.
    public let signatureRange: Range<Int>?
    /// The signature LC_CODE_SIGNATURE points at.
    public let signature: CodeSignature?

    /// The architecture's name, as `lipo` and `llvm-objdump` print it.
    public var architecture: String { MachOSlice.architectureName(cpuType: cpuType, cpuSubtype: cpuSubtype) }

    /// CPU_TYPE_* and CPU_SUBTYPE_* (<mach/machine.h>) for the architectures Apple's platforms have used.
    static func architectureName(cpuType: Int32, cpuSubtype: Int32) -> String {
        let subtype = cpuSubtype & 0x00FF_FFFF
        switch cpuType {
        case 0x0100_000C: return subtype == 2 ? "arm64e" : "arm64"
        case 0x0200_000C: return "arm64_32"
        case 12: return [9: "armv7", 11: "armv7s", 12: "armv7k", 6: "armv6"][subtype] ?? "arm"
        case 0x0100_0007: return "x86_64"
        case 7: return "i386"
        default: return "cputype \(cpuType)"
        }
    }

    /// LC_BUILD_VERSION's `platform` (<mach-o/loader.h> PLATFORM_*).
    static func platformName(_ platform: UInt32) -> String {
        [
            1: "macOS", 2: "iOS", 3: "tvOS", 4: "watchOS", 5: "bridgeOS", 6: "Mac Catalyst", 7: "iOS simulator",
            8: "tvOS simulator", 9: "watchOS simulator", 10: "DriverKit", 11: "visionOS", 12: "visionOS simulator",
        ][platform] ?? "platform \(platform)"
    }

    /// A version packed as xxxx.yy.zz in nibbles (LC_BUILD_VERSION's `minos`), as `15.0` or `15.0.1`.
    static func version(_ packed: UInt32) -> String {
        let patch = packed & 0xFF
        return "\(packed >> 16).\((packed >> 8) & 0xFF)" + (patch == 0 ? "" : ".\(patch)")
    }
}
