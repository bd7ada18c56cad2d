extension MachOScanner {
    /// LC_CODE_SIGNATURE, LC_BUILD_VERSION and the LC_VERSION_MIN_* commands of <mach-o/loader.h>, with their
    /// platforms.
    private static let codeSignature: UInt32 = 0x1D
    private static let buildVersion: UInt32 = 0x32
    private static let versionMin: [UInt32: String] = [0x24: "macOS", 0x25: "iOS", 0x2F: "tvOS", 0x30: "watchOS"]

    /// Walks `count` load commands, as xnu's `parse_machfile` does: each at least 8 bytes, none past
    /// `sizeofcmds` (the bytes of `commands`). Keeps LC_CODE_SIGNATURE (exactly 16 bytes, as
    /// `load_code_signature` requires, and at most one) and the platform.
    static func parseCommands(_ commands: ByteReader, count: Int) throws(ArtifactError) -> Commands {
        var result = Commands()
        var offset = 0
        for index in 0..<count {
            guard offset <= commands.count - 8 else {
                throw commands.error("load command \(index) of \(count) starts past sizeofcmds (\(commands.count) bytes)", at: offset)
            }
            let command = try commands.uint32(at: offset)
            let size = try commands.size32(at: offset + 4)
            guard size >= 8, size <= commands.count - offset else {
                throw commands.error(
                    "load command \(index) (0x\(String(command, radix: 16))) has cmdsize \(size), not 8 to the \(commands.count - offset) bytes left",
                    at: offset + 4
                )
            }
            switch command {
            case codeSignature:
                guard size == 16 else { throw commands.error("LC_CODE_SIGNATURE's cmdsize is \(size), not 16", at: offset + 4) }
                guard result.signature == nil else { throw commands.error("a second LC_CODE_SIGNATURE", at: offset) }
                let dataOffset = try commands.size32(at: offset + 8)
                let dataSize = try commands.size32(at: offset + 12)
                result.signature = dataOffset..<(dataOffset + dataSize)
                result.signatureCommand = offset
            case buildVersion where size >= 24:
                result.platform = MachOSlice.platformName(try commands.uint32(at: offset + 8))
                result.minimumOS = MachOSlice.version(try commands.uint32(at: offset + 12))
            case let other where versionMin[other] != nil && size >= 16 && result.platform == nil:
                result.platform = versionMin[other]
                result.minimumOS = MachOSlice.version(try commands.uint32(at: offset + 8))
            default:
                break
            }
            offset += size
        }
        return result
    }
}
