/// A CodeDirectory (CSMAGIC_CODEDIRECTORY, xnu's `CS_CodeDirectory` in osfmk/kern/cs_blobs.h): the signed
/// identity of the code, its identifier (the bundle identifier, for an app) and, from version 0x20200, its team.
/// Checked as xnu's `cs_validate_codedirectory` (bsd/kern/ubc_subr.c) does: a known hash type of its size, a
/// 4 KiB or 16 KiB page, the special and code slots, the scatter vector, the identifier, the team and the linkage
/// inside the CodeDirectory.
public struct CodeDirectory: Sendable, Hashable {
    static let magic: UInt32 = 0xFADE_0C02

    public let version: UInt32
    public let flags: UInt32
    /// CS_HASHTYPE_*: 1 SHA-1, 2 SHA-256, 3 SHA-256 truncated, 4 SHA-384.
    public let hashType: UInt8
    /// The signing identifier, a bundle identifier for an app; nil when the CodeDirectory has none.
    public let identifier: String?
    /// The team identifier (version 0x20200 and later).
    public let teamIdentifier: String?
    /// The page size hashed: 4096 or 16384.
    public let pageSize: Int

    /// Whether the signature is ad hoc (CS_ADHOC in `flags`): signed by no certificate, which iOS runs only from
    /// a trust cache or a developer's own machine.
    public var isAdHoc: Bool { flags & 0x2 != 0 }

    /// The hash type's name, as `codesign -d` prints it.
    public var hashName: String {
        switch hashType {
        case 1: "sha1"
        case 2: "sha256"
        case 3: "sha256-truncated"
        default: "sha384"
        }
    }

    /// xnu's `hash_rank`: the stronger hash ranks higher, and iOS uses the highest-ranked CodeDirectory.
    var hashRank: Int { [1: 1, 3: 2, 2: 3, 4: 4][hashType] ?? 0 }

    /// Reads the CodeDirectory blob of `length` bytes at `offset`.
    init(_ signature: ByteReader, at offset: Int, length: Int) throws(ArtifactError) {
        let blob = try signature.reader(at: offset, count: length, structure: "CodeDirectory", "the CodeDirectory")
        guard try blob.uint32(at: 0) == Self.magic else { throw blob.error("the CodeDirectory slot does not hold magic 0xfade0c02", at: 0) }
        let version = try blob.uint32(at: 8)
        let headerSize = Self.headerSize(version)
        guard length >= headerSize else {
            throw blob.error("\(length) bytes, shorter than a version 0x\(String(version, radix: 16)) header (\(headerSize))", at: 4)
        }
        let hashSize = Int(try blob.uint8(at: 36))
        let hashType = try blob.uint8(at: 37)
        let pageShift = try blob.uint8(at: 39)
        guard let expected = [1: 20, 2: 32, 3: 20, 4: 48][hashType], hashSize == expected else {
            throw blob.error("hash type \(hashType) with \(hashSize)-byte hashes is not one xnu knows", at: 36)
        }
        guard pageShift == 12 || pageShift == 14 else { throw blob.error("page size 2^\(pageShift) is neither 4 KiB nor 16 KiB", at: 39) }
        let hashOffset = try blob.size32(at: 16)
        let specialSlots = try blob.size32(at: 24)
        let codeSlots = try blob.size32(at: 28)
        guard hashOffset <= length, hashOffset / hashSize >= specialSlots, (length - hashOffset) / hashSize >= codeSlots else {
            throw blob.error("\(specialSlots) special and \(codeSlots) code hashes around offset \(hashOffset) do not fit in \(length) bytes", at: 16)
        }
        if version >= 0x20100 { try Self.checkScatter(blob, at: try blob.size32(at: 44), length: length) }
        self.identifier = try Self.string(blob, offsetField: 20, length: length, what: "identifier")
        self.teamIdentifier = version >= 0x20200 ? try Self.string(blob, offsetField: 48, length: length, what: "team identifier") : nil
        if version >= 0x20600, try blob.uint8(at: 96) != 0 {
            let start = try blob.size32(at: 100)
            let size = try blob.size32(at: 104)
            guard start <= length, size <= length - start else { throw blob.error("the linkage runs past the CodeDirectory", at: 100) }
        }
        self.version = version
        self.flags = try blob.uint32(at: 12)
        self.hashType = hashType
        self.pageSize = 1 << Int(pageShift)
    }

    /// The fixed fields' size for `version`: each version appends fields (cs_blobs.h's `end_with…` markers).
    private static func headerSize(_ version: UInt32) -> Int {
        switch version {
        case ..<0x20100: 44
        case ..<0x20200: 48
        case ..<0x20300: 52
        case ..<0x20400: 64
        case ..<0x20500: 88
        case ..<0x20600: 96
        default: 108
        }
    }

    /// The NUL-terminated string whose offset is in the field at `offsetField`; nil when that offset is 0.
    private static func string(_ blob: ByteReader, offsetField: Int, length: Int, what: String) throws(ArtifactError) -> String? {
        let offset = try blob.size32(at: offsetField)
        guard offset != 0 else { return nil }
        guard let string = blob.cString(at: offset, limit: length) else {
            throw blob.error("the \(what) at \(offset) does not end with a NUL inside the CodeDirectory", at: offsetField)
        }
        return string
    }

    /// Each scatter entry (16 bytes: count, base, target offset, spare) inside the CodeDirectory, up to the
    /// zero-count sentinel.
    private static func checkScatter(_ blob: ByteReader, at offset: Int, length: Int) throws(ArtifactError) {
        guard offset != 0 else { return }
        var entry = offset
        var pages: UInt32 = 0
        while true {
            guard entry <= length - 16 else { throw blob.error("the scatter vector runs past the CodeDirectory", at: entry) }
            let count = try blob.uint32(at: entry)
            if count == 0 { return }
            guard pages <= UInt32.max - count else { throw blob.error("the scatter vector's page count overflows", at: entry) }
            pages += count
            entry += 16
        }
    }
}
