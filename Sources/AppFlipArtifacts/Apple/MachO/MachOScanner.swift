/// Reads a Mach-O file as a sequence of byte ranges in ascending file order, so that one reader serves a file
/// read where it lies and an archive entry inflated as a stream: `wanted` names the bytes it needs next, always
/// after every range it asked for before, and `supply` hands them over.
///
/// Formats: <mach-o/fat.h> (`fat_header`, `fat_arch`, big-endian; `fat_arch_64` of magic 0xcafebabf from
/// Apple's cctools) and <mach-o/loader.h> (`mach_header`, `mach_header_64`, load commands,
/// `linkedit_data_command`, `build_version_command`, `version_min_command`). Checks: xnu's
/// `fatfile_validate_fatarches` (bsd/kern/mach_fat.c: the arch table inside the first page read, every slice
/// after it and inside the file, no two slices overlapping or of one CPU type), `parse_machfile` (the header and
/// `sizeofcmds` inside the image, each `cmdsize` at least 8 and inside `sizeofcmds`) and `load_code_signature`
/// (bsd/kern/mach_loader.c: LC_CODE_SIGNATURE's size 16, its data inside the image); and this reader's own, that
/// the signature lies after the load commands, as a linker places it in __LINKEDIT.
struct MachOScanner {
    /// xnu reads the first page of a file for the fat header and its arch table; iOS's page is 16 KiB.
    static let fatTableLimit = 16384
    /// The most load-command bytes read: real executables have tens of kilobytes.
    static let maximumLoadCommandsSize = 16 << 20

    private struct Layout {
        let is64: Bool
        let bigEndian: Bool
        let cpuType: Int32
        var headerSize: Int { is64 ? 32 : 28 }
    }

    private struct Header {
        let layout: Layout
        let cpuSubtype: Int32
        let fileType: UInt32
        let commandCount: Int
        let commandsSize: Int
    }

    /// What the load commands say, offsets relative to the image.
    struct Commands {
        var platform: String?
        var minimumOS: String?
        /// LC_CODE_SIGNATURE's `dataoff..<dataoff + datasize`.
        var signature: Range<Int>?
        /// Where the LC_CODE_SIGNATURE command is, relative to the first load command.
        var signatureCommand = 0
    }

    private struct PendingSlice {
        let offset: Int
        let size: Int
        /// The CPU type the fat header names, which the slice's own header must repeat.
        let cpuType: Int32?
    }

    private enum Step {
        case magic
        case fatTable(count: Int, is64: Bool)
        case sliceMagic
        case sliceHeader(Layout)
        case loadCommands(Header)
        case signature(Header, Commands)
        case done
    }

    let fileSize: Int
    let file: String
    /// The bytes needed next; nil once the file is read.
    private(set) var wanted: Range<Int>?
    private var step = Step.magic
    private var pending: [PendingSlice] = []
    private var slices: [MachOSlice] = []
    private var isUniversal = false

    init(fileSize: Int, file: String) throws(ArtifactError) {
        guard fileSize >= 8 else { throw ArtifactError("Mach-O header", file: file, offset: 0, "\(fileSize) bytes, too short for a Mach-O header") }
        self.fileSize = fileSize
        self.file = file
        self.wanted = 0..<8
    }

    /// What was read, once `wanted` is nil.
    var result: MachOFile { MachOFile(isUniversal: isUniversal, slices: slices) }

    /// Reads a whole file through `source`, one wanted range at a time.
    static func read(_ source: some ByteSource) throws(ArtifactError) -> MachOFile {
        var scanner = try MachOScanner(fileSize: source.count, file: source.name)
        while let range = scanner.wanted { try scanner.supply(source.read(range, for: "Mach-O file")) }
        return scanner.result
    }

    /// Takes the bytes of `wanted`.
    mutating func supply(_ bytes: [UInt8]) throws(ArtifactError) {
        guard let range = wanted else { return }
        precondition(bytes.count == range.count, "supplied \(bytes.count) bytes for \(range)")
        switch step {
        case .magic: try readMagic(bytes)
        case .fatTable(let count, let is64): try readFatTable(bytes, count: count, is64: is64)
        case .sliceMagic: try readSliceMagic(bytes, at: range.lowerBound)
        case .sliceHeader(let layout): try readSliceHeader(bytes, layout, at: range.lowerBound)
        case .loadCommands(let header): try readLoadCommands(bytes, header, at: range.lowerBound)
        case .signature(let header, let commands):
            try finishSlice(header, commands, CodeSignature(bytes: bytes, file: file, base: range.lowerBound))
        case .done: break
        }
    }

    private func reader(_ bytes: [UInt8], at base: Int, _ structure: String, bigEndian: Bool) -> ByteReader {
        ByteReader(bytes, base: base, file: file, structure: structure, bigEndian: bigEndian)
    }

    /// The layout a Mach-O magic number announces, with the CPU type after it; nil for any other magic.
    private func layout(_ bytes: [UInt8], at base: Int) throws(ArtifactError) -> Layout? {
        let little = reader(bytes, at: base, "Mach-O header", bigEndian: false)
        let (is64, bigEndian): (Bool, Bool)
        switch try little.uint32(at: 0) {
        case 0xFEED_FACE: (is64, bigEndian) = (false, false)
        case 0xFEED_FACF: (is64, bigEndian) = (true, false)
        case 0xCEFA_EDFE: (is64, bigEndian) = (false, true)
        case 0xCFFA_EDFE: (is64, bigEndian) = (true, true)
        default: return nil
        }
        let cpuType = try reader(bytes, at: base, "Mach-O header", bigEndian: bigEndian).uint32(at: 4)
        return Layout(is64: is64, bigEndian: bigEndian, cpuType: Int32(bitPattern: cpuType))
    }

    private mutating func readMagic(_ bytes: [UInt8]) throws(ArtifactError) {
        let big = reader(bytes, at: 0, "fat header", bigEndian: true)
        let magic = try big.uint32(at: 0)
        if magic == 0xCAFE_BABE || magic == 0xCAFE_BABF {
            let count = try big.size32(at: 4)
            let tableEnd = 8 + count * (magic == 0xCAFE_BABF ? 32 : 20)
            guard count >= 1 else { throw big.error("nfat_arch is 0: no architectures", at: 4) }
            guard tableEnd <= Self.fatTableLimit else {
                throw big.error(
                    "nfat_arch \(count): the arch table would end at \(tableEnd), past the first \(Self.fatTableLimit) bytes xnu reads",
                    at: 4
                )
            }
            guard tableEnd <= fileSize else {
                throw big.error("nfat_arch \(count): the arch table would end at \(tableEnd), past the file's \(fileSize) bytes", at: 4)
            }
            isUniversal = true
            step = .fatTable(count: count, is64: magic == 0xCAFE_BABF)
            wanted = 8..<tableEnd
        } else if let layout = try layout(bytes, at: 0) {
            guard layout.headerSize <= fileSize else {
                throw ArtifactError("Mach-O header", file: file, offset: 0, "\(fileSize) bytes, shorter than a \(layout.headerSize)-byte header")
            }
            pending = [PendingSlice(offset: 0, size: fileSize, cpuType: nil)]
            step = .sliceHeader(layout)
            wanted = 8..<layout.headerSize
        } else {
            throw big.error("magic 0x\(String(magic, radix: 16)) is neither a Mach-O nor a universal file", at: 0)
        }
    }

    private mutating func readFatTable(_ bytes: [UInt8], count: Int, is64: Bool) throws(ArtifactError) {
        let table = reader(bytes, at: 8, "fat arch table", bigEndian: true)
        let entrySize = is64 ? 32 : 20
        var seen: [(cpu: UInt32, subtype: UInt32, offset: Int)] = []
        var arches: [PendingSlice] = []
        for index in 0..<count {
            let entry = index * entrySize
            let cpu = try table.uint32(at: entry)
            let subtype = try table.uint32(at: entry + 4)
            let offset = is64 ? try table.size64(at: entry + 8, field: "offset") : try table.size32(at: entry + 8)
            let size = is64 ? try table.size64(at: entry + 16, field: "size") : try table.size32(at: entry + 12)
            guard offset >= 8 + bytes.count else { throw table.error("arch \(index) starts at \(offset), inside the fat header", at: entry + 8) }
            guard size <= fileSize - offset else {
                throw table.error("arch \(index) (\(offset) + \(size) bytes) runs past the file's \(fileSize) bytes", at: entry + 8)
            }
            if let twin = seen.first(where: { $0.cpu == cpu && $0.subtype == subtype }) {
                throw table.error("arch \(index) repeats the CPU type of the slice at \(twin.offset)", at: entry)
            }
            seen.append((cpu, subtype, offset))
            arches.append(PendingSlice(offset: offset, size: size, cpuType: Int32(bitPattern: cpu)))
        }
        arches.sort { $0.offset < $1.offset }
        for (before, after) in zip(arches, arches.dropFirst()) where before.offset + before.size > after.offset {
            throw table.error("the slices at \(before.offset) and \(after.offset) overlap", at: 0)
        }
        pending = arches
        beginSlice()
    }

    /// Asks for the next slice's magic, or ends.
    private mutating func beginSlice() {
        guard slices.count < pending.count else {
            step = .done
            wanted = nil
            return
        }
        let slice = pending[slices.count]
        step = .sliceMagic
        wanted = slice.offset..<(slice.offset + min(8, slice.size))
    }

    private mutating func readSliceMagic(_ bytes: [UInt8], at offset: Int) throws(ArtifactError) {
        let slice = pending[slices.count]
        guard bytes.count == 8, let layout = try layout(bytes, at: offset) else {
            throw ArtifactError("Mach-O header", file: file, offset: offset, "the slice at \(offset) is not a Mach-O image")
        }
        if let fatType = slice.cpuType, fatType != layout.cpuType {
            throw ArtifactError(
                "Mach-O header",
                file: file,
                offset: offset + 4,
                "the fat header names CPU type \(fatType), the slice's header \(layout.cpuType)"
            )
        }
        guard layout.headerSize <= slice.size else {
            throw ArtifactError(
                "Mach-O header",
                file: file,
                offset: offset,
                "a \(slice.size)-byte slice is shorter than its \(layout.headerSize)-byte header"
            )
        }
        step = .sliceHeader(layout)
        wanted = (offset + 8)..<(offset + layout.headerSize)
    }

    private mutating func readSliceHeader(_ bytes: [UInt8], _ layout: Layout, at offset: Int) throws(ArtifactError) {
        let slice = pending[slices.count]
        let fields = reader(bytes, at: offset, "Mach-O header", bigEndian: layout.bigEndian)
        let header = Header(
            layout: layout,
            cpuSubtype: Int32(bitPattern: try fields.uint32(at: 0)),
            fileType: try fields.uint32(at: 4),
            commandCount: try fields.size32(at: 8),
            commandsSize: try fields.size32(at: 12)
        )
        guard header.commandsSize <= Self.maximumLoadCommandsSize, header.commandsSize <= slice.size - layout.headerSize else {
            throw fields.error(
                "sizeofcmds \(header.commandsSize) runs past the image's \(slice.size) bytes or the limit of \(Self.maximumLoadCommandsSize)",
                at: 12
            )
        }
        let start = slice.offset + layout.headerSize
        step = .loadCommands(header)
        wanted = start..<(start + header.commandsSize)
    }

    private mutating func readLoadCommands(_ bytes: [UInt8], _ header: Header, at offset: Int) throws(ArtifactError) {
        let slice = pending[slices.count]
        let commands = try Self.parseCommands(
            reader(bytes, at: offset, "Mach-O load command", bigEndian: header.layout.bigEndian),
            count: header.commandCount
        )
        guard let signature = commands.signature else { return try finishSlice(header, commands, nil) }
        let commandsEnd = header.layout.headerSize + header.commandsSize
        let problem: String? =
            if signature.lowerBound < commandsEnd {
                "dataoff \(signature.lowerBound) overlaps the header and load commands, which end at \(commandsEnd)"
            } else if signature.upperBound > slice.size {
                "the signature (\(signature.lowerBound) + \(signature.count) bytes) runs past the image's \(slice.size) bytes"
            } else if signature.count > CodeSignature.maximumSize {
                "datasize \(signature.count) is over the limit of \(CodeSignature.maximumSize)"
            } else {
                nil
            }
        if let problem { throw ArtifactError("LC_CODE_SIGNATURE", file: file, offset: offset + commands.signatureCommand, problem) }
        step = .signature(header, commands)
        wanted = (slice.offset + signature.lowerBound)..<(slice.offset + signature.upperBound)
    }

    private mutating func finishSlice(_ header: Header, _ commands: Commands, _ signature: CodeSignature?) throws(ArtifactError) {
        let slice = pending[slices.count]
        slices.append(
            MachOSlice(
                offset: slice.offset,
                size: slice.size,
                cpuType: header.layout.cpuType,
                cpuSubtype: header.cpuSubtype,
                fileType: header.fileType,
                platform: commands.platform,
                minimumOS: commands.minimumOS,
                signatureRange: commands.signature,
                signature: signature
            )
        )
        beginSlice()
    }
}
