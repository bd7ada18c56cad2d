/// The APK Signing Block: the ID-value pairs that lie between an APK's last entry and its central directory
/// (source.android.com/docs/security/features/apksigning/v2, "APK Signing Block"; read as apksig's
/// `ApkSigningBlockUtils.findApkSigningBlock` and `findApkSignatureSchemeBlock` read it). Hand-written: no
/// Swift library reads it. It is found from the central directory's offset, read alone (never the APK around
/// it), and every length in it is checked against the block.
public struct APKSigningBlock: Sendable {
    /// The IDs of the pairs this reader knows (apksig `V2SchemeConstants`, `V3SchemeConstants`,
    /// `SourceStampConstants`, `ApkSigningBlockUtils.VERITY_PADDING_BLOCK_ID`).
    public enum ID {
        public static let v2: UInt32 = 0x7109_871a
        public static let v3: UInt32 = 0xf053_68c0
        public static let v31: UInt32 = 0x1b93_ad61
        public static let sourceStampV1: UInt32 = 0x2b09_189e
        public static let sourceStampV2: UInt32 = 0x6dff_800d
        public static let verityPadding: UInt32 = 0x4272_6577
        public static let dependencyInfo: UInt32 = 0x504b_4453
    }

    static let structure = "APK Signing Block"
    static let magic = Array("APK Sig Block 42".utf8)

    /// Where the block starts in the file.
    public let offset: Int
    /// Its size, from its first 8-byte size field to the end of its magic.
    public let size: Int
    /// One ID-value pair: its ID, and where its value lies in the file.
    public struct Pair: Sendable, Hashable {
        public let id: UInt32
        public let offset: Int
        public let length: Int
    }

    /// The pairs, in order.
    public let pairs: [Pair]
    /// Each pair's value.
    private let values: [ByteReader]

    /// The block before `directory`'s central directory, or nil when the 16 bytes before it are not the
    /// block's magic (an APK signed with v1 alone, an AAB).
    public init?(directory: ZipDirectory, limits: ArchiveLimits = .standard) throws(ArtifactError) {
        let source = directory.source
        let end = directory.centralDirectoryOffset
        guard end >= 32 else { return nil }
        let footer = ByteReader(try source.read((end - 24)..<end, for: Self.structure), base: end - 24, file: source.name, structure: Self.structure)
        guard try footer.bytes(at: 8, count: 16, "the magic").elementsEqual(Self.magic) else { return nil }
        let footerSize = try footer.uint64(at: 0)
        guard footerSize >= 24, footerSize <= UInt64(end - 8) else {
            throw footer.error(
                "the footer declares a block of \(footerSize) bytes: it would start at \(Int64(end) - 8 - Int64(clamping: footerSize)), outside the file before the central directory at \(end)",
                at: 0
            )
        }
        let total = Int(footerSize) + 8
        guard total <= limits.maxSigningBlockBytes else {
            throw footer.error("a block of \(total) bytes, over the limit of \(limits.maxSigningBlockBytes)", at: 0)
        }
        let start = end - total
        let block = ByteReader(try source.read(start..<end, for: Self.structure), base: start, file: source.name, structure: Self.structure)
        guard try block.uint64(at: 0) == footerSize else {
            throw block.error("the sizes in its header (\(try block.uint64(at: 0))) and footer (\(footerSize)) differ", at: 0)
        }
        if let overlapped = directory.lastEntry, overlapped.localHeaderOffset >= start {
            throw block.error("the block overlaps entry \"\(overlapped.name)\", whose local header is at \(overlapped.localHeaderOffset)", at: 0)
        }
        offset = start
        size = total
        let read = try Self.pairs(try block.reader(at: 8, count: total - 32, "the ID-value pairs"))
        pairs = read.map { Pair(id: $0.id, offset: $0.value.base, length: $0.value.count) }
        values = read.map(\.value)
    }

    /// The pairs: each an 8-byte length (covering the 4-byte ID and the value), the ID, the value. A length
    /// that leaves the pairs, or a scheme's ID seen twice, is refused.
    private static func pairs(_ reader: ByteReader) throws(ArtifactError) -> [(id: UInt32, value: ByteReader)] {
        var pairs: [(id: UInt32, value: ByteReader)] = []
        var offset = 0
        while offset < reader.count {
            guard reader.count - offset >= 8 else {
                throw reader.error("\(reader.count - offset) bytes left, too few for a pair's length", at: offset)
            }
            let length = try reader.uint64(at: offset)
            guard length >= 4, length <= UInt64(reader.count - offset - 8) else {
                throw reader.error(
                    "pair #\(pairs.count + 1) declares \(length) bytes, outside the \(reader.count - offset - 8) left in the block",
                    at: offset
                )
            }
            let id = try reader.uint32(at: offset + 8)
            if let earlier = pairs.first(where: { $0.id == id }), [ID.v2, ID.v3, ID.v31].contains(id) {
                throw reader.error("a second block with ID 0x\(String(id, radix: 16)); the first is at \(earlier.value.base - 12)", at: offset)
            }
            let value = try reader.reader(at: offset + 12, count: Int(length) - 4, "a pair's value")
            pairs.append((id, value))
            offset += 8 + Int(length)
        }
        return pairs
    }

    /// The value of the pair `id`, if present.
    func value(_ id: UInt32) -> ByteReader? { pairs.firstIndex { $0.id == id }.map { values[$0] } }
}
