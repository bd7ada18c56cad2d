/// A zip's end-of-central-directory record and central directory, read where they lie at the end of the
/// file (APPNOTE.TXT 4.3.12, 4.3.14–16, 4.5.3; located as apksig's `ZipUtils.findZipEndOfCentralDirectoryRecord`
/// does, since the APK Signing Block is found through it). Only the central directory is read, never the
/// entries' data: that is ``ArtifactArchive``'s, through ZIPFoundation.
///
/// Hand-written because ZIPFoundation keeps these offsets internal, and the signing block and the errors need
/// them: every refusal names the record and its offset.
public struct ZipDirectory: Sendable {
    /// One central directory file header.
    public struct Entry: Sendable, Hashable {
        public let name: String
        /// Where its central directory header starts.
        public let directoryOffset: Int
        public let localHeaderOffset: Int
        public let compressedSize: Int
        public let uncompressedSize: Int
        /// 0 stored, 8 deflated.
        public let method: UInt16
    }

    public let endOfCentralDirectoryOffset: Int
    public let centralDirectoryOffset: Int
    public let centralDirectorySize: Int
    public let entries: [Entry]
    /// Each name's entry.
    public let byName: [String: Entry]

    static let structure = "zip central directory"
    static let eocdStructure = "zip end of central directory"

    /// Reads the directory of `source`, refusing what Android's `libziparchive` refuses (a duplicate name) and
    /// what no reader should follow (a `..` or absolute name, an entry beyond the directory).
    public init(source: some ByteSource, file: String, limits: ArchiveLimits = .standard) throws {
        let end = try Self.locateEnd(source: source, file: file)
        endOfCentralDirectoryOffset = end.eocdOffset
        centralDirectoryOffset = end.directoryOffset
        centralDirectorySize = end.directorySize
        guard end.directorySize <= limits.maxCentralDirectoryBytes else {
            throw ArtifactError(
                Self.structure,
                file: file,
                offset: end.directoryOffset,
                "\(end.directorySize) bytes, over the limit of \(limits.maxCentralDirectoryBytes)"
            )
        }
        guard end.entryCount <= limits.maxEntries else {
            throw ArtifactError(
                Self.eocdStructure,
                file: file,
                offset: end.eocdOffset,
                "\(end.entryCount) entries, over the limit of \(limits.maxEntries)"
            )
        }
        guard end.directoryOffset <= end.recordsStart, end.directorySize <= end.recordsStart - end.directoryOffset else {
            throw ArtifactError(
                Self.eocdStructure,
                file: file,
                offset: end.eocdOffset,
                "the central directory (\(end.directorySize) bytes at \(end.directoryOffset)) overlaps the end records at \(end.recordsStart)"
            )
        }
        let reader = ByteReader(
            try source.read(at: end.directoryOffset, length: end.directorySize, structure: Self.structure, file: file),
            base: end.directoryOffset,
            structure: Self.structure,
            file: file
        )
        var entries: [Entry] = []
        var byName: [String: Entry] = [:]
        var offset = 0
        for _ in 0..<end.entryCount {
            let entry = try Self.readEntry(reader, at: &offset, dataEnd: end.directoryOffset)
            guard byName[entry.name] == nil else {
                throw ArtifactError(
                    Self.structure,
                    file: file,
                    offset: entry.directoryOffset,
                    "the entry name \"\(entry.name)\" appears twice (Android's libziparchive refuses the archive)"
                )
            }
            entries.append(entry)
            byName[entry.name] = entry
        }
        self.entries = entries
        self.byName = byName
    }

    /// One central directory header at `offset`, which it moves past.
    private static func readEntry(_ reader: ByteReader, at offset: inout Int, dataEnd: Int) throws -> Entry {
        let start = offset
        guard try reader.u32(start) == 0x0201_4b50 else {
            throw reader.error(at: start, "no central directory file header signature (PK\\1\\2)")
        }
        let method = try reader.u16(start + 10)
        var compressed = UInt64(try reader.u32(start + 20))
        var uncompressed = UInt64(try reader.u32(start + 24))
        let nameLength = Int(try reader.u16(start + 28))
        let extraLength = Int(try reader.u16(start + 30))
        let commentLength = Int(try reader.u16(start + 32))
        var localOffset = UInt64(try reader.u32(start + 42))
        let nameBytes = try reader.slice(start + 46, nameLength, "an entry name")
        let extra = try reader.sub(start + 46 + nameLength, extraLength, "an entry's extra field")
        try readZip64Extra(extra, compressed: &compressed, uncompressed: &uncompressed, localOffset: &localOffset)
        offset = start + 46 + nameLength + extraLength + commentLength
        try reader.check(start, offset - start, "a central directory file header")
        let name = String(decoding: nameBytes, as: UTF8.self)
        if let problem = EntryName.problem(name, bytes: nameBytes) { throw reader.error(at: start, "entry \"\(name)\": \(problem)") }
        guard localOffset < UInt64(dataEnd), compressed <= UInt64(dataEnd) - localOffset else {
            throw reader.error(
                at: start,
                "entry \"\(name)\": its data (\(compressed) bytes at \(localOffset)) lies outside the entries before the central directory at \(dataEnd)"
            )
        }
        guard uncompressed <= UInt64(Int.max) else { throw reader.error(at: start, "entry \"\(name)\": an impossible size") }
        return Entry(
            name: name,
            directoryOffset: reader.base + start,
            localHeaderOffset: Int(localOffset),
            compressedSize: Int(compressed),
            uncompressedSize: Int(uncompressed),
            method: method
        )
    }

    /// The ZIP64 extended information extra field (0x0001): the 64-bit values of the fields set to 0xFFFFFFFF,
    /// in order (APPNOTE.TXT 4.5.3).
    private static func readZip64Extra(_ extra: ByteReader, compressed: inout UInt64, uncompressed: inout UInt64, localOffset: inout UInt64) throws {
        var offset = 0
        while offset + 4 <= extra.count {
            let id = try extra.u16(offset)
            let size = Int(try extra.u16(offset + 2))
            let field = try extra.sub(offset + 4, size, "an extra field")
            if id == 0x0001 {
                var at = 0
                if uncompressed == 0xFFFF_FFFF {
                    uncompressed = try field.u64(at)
                    at += 8
                }
                if compressed == 0xFFFF_FFFF {
                    compressed = try field.u64(at)
                    at += 8
                }
                if localOffset == 0xFFFF_FFFF { localOffset = try field.u64(at) }
            }
            offset += 4 + size
        }
    }
}
