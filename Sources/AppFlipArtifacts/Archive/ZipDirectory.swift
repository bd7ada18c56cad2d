/// A zip archive's central directory, read where it lies at the end of the file (PKWARE's APPNOTE.TXT 4.3.12,
/// 4.3.14–16, 4.5.3): the end records, then the records, a window at a time, so that an archive of any number of
/// files costs the memory of one window. Opening it checks every record once, and refuses what no reader should
/// follow: a name that climbs out of the archive (`..`, an absolute path) or holds a NUL, an entry whose data
/// would not lie before the directory, and two entries of one name, for which readers differ on which they take
/// (Android's `libziparchive` refuses the archive).
///
/// Hand-written: ZIPFoundation 0.9.20 lists entries too, but keeps their offsets internal (the APK Signing Block
/// is found from the directory's offset, and every refusal names its offset) and, on Linux, inflates past an
/// entry's compressed bytes to the end of the file, where a deflate stream that never ends loops forever
/// (weichsel/ZIPFoundation pull request 389); ``ArtifactArchive`` feeds its inflater an entry's own bytes only.
public struct ZipDirectory: Sendable {
    static let structure = "zip central directory"
    static let endStructure = "zip end of central directory"
    /// The window the records are read through: larger than any one record (46 bytes and three 16-bit lengths).
    static let window = 1 << 20

    public let source: any ByteSource
    /// How many records the end record counts.
    public let entryCount: Int
    /// Where the central directory starts: no entry's data reaches it, and the APK Signing Block ends there.
    public let centralDirectoryOffset: Int
    public let centralDirectorySize: Int
    /// Where the end-of-central-directory record (or its ZIP64 form) starts.
    public let endOfCentralDirectoryOffset: Int
    /// The entry whose local header lies last in the file: an APK Signing Block must start after it.
    public let lastEntry: ZipEntry?

    /// Reads the end records of `source` and checks every record of its central directory within `limits`.
    public init(source: some ByteSource, limits: ArchiveLimits = .standard) throws(ArtifactError) {
        let end = try Self.locateEnd(source)
        let problem: (structure: String, offset: Int, message: String)? =
            if end.directorySize > limits.maxCentralDirectoryBytes {
                (Self.structure, end.directoryOffset, "\(end.directorySize) bytes, over the limit of \(limits.maxCentralDirectoryBytes)")
            } else if end.entryCount > limits.maxEntries {
                (Self.endStructure, end.recordOffset, "\(end.entryCount) entries, over the limit of \(limits.maxEntries)")
            } else if end.entryCount > end.directorySize / 46 {
                (Self.structure, end.directoryOffset, "\(end.entryCount) entries cannot fit in \(end.directorySize) bytes")
            } else {
                nil
            }
        if let problem { throw ArtifactError(problem.structure, file: source.name, offset: problem.offset, problem.message) }
        self.source = source
        entryCount = end.entryCount
        centralDirectoryOffset = end.directoryOffset
        centralDirectorySize = end.directorySize
        endOfCentralDirectoryOffset = end.recordOffset
        lastEntry = try Self.checkRecords(source, entryCount: end.entryCount, offset: end.directoryOffset, size: end.directorySize)
    }

    /// Hands each entry to `visit`, in directory order, until it returns false.
    public func forEach(_ visit: (ZipEntry) throws(ArtifactError) -> Bool) throws(ArtifactError) {
        try Self.walk(source, entryCount: entryCount, offset: centralDirectoryOffset, size: centralDirectorySize, visit)
    }

    private static func walk(
        _ source: any ByteSource,
        entryCount: Int,
        offset: Int,
        size: Int,
        _ visit: (ZipEntry) throws(ArtifactError) -> Bool
    ) throws(ArtifactError) {
        var window = ByteReader([], base: offset, file: source.name, structure: structure)
        var position = offset
        for _ in 0..<entryCount {
            // A record is 46 bytes and three lengths of at most 65,535 each; read on when the window ends sooner.
            if position + 46 + 3 * 0xFFFF > window.base + window.count, window.base + window.count < offset + size {
                window = ByteReader(
                    try source.read(position..<min(offset + size, position + Self.window), for: structure),
                    base: position,
                    file: source.name,
                    structure: structure
                )
            }
            var at = position - window.base
            let entry = try record(window, at: &at, dataEnd: offset)
            position = window.base + at
            guard try visit(entry) else { return }
        }
    }

    /// Every entry `isIncluded` takes, in directory order.
    public func entries(where isIncluded: (ZipEntry) -> Bool) throws(ArtifactError) -> [ZipEntry] {
        var found: [ZipEntry] = []
        try forEach { entry in
            if isIncluded(entry) { found.append(entry) }
            return true
        }
        return found
    }

    /// The entry named `name`, or nil.
    public func entry(named name: String) throws(ArtifactError) -> ZipEntry? {
        var found: ZipEntry?
        try forEach { entry in
            if entry.name == name { found = entry }
            return found == nil
        }
        return found
    }

    /// Walks every record once, so that a broken one is refused whichever entries are read later; refuses two
    /// entries of one name, keeping only the names' hashes (and, when two hashes meet, walking again for the
    /// names that share them); and returns the entry whose local header lies last.
    private static func checkRecords(_ source: any ByteSource, entryCount: Int, offset: Int, size: Int) throws(ArtifactError) -> ZipEntry? {
        func walk(_ visit: (ZipEntry) throws(ArtifactError) -> Bool) throws(ArtifactError) {
            try Self.walk(source, entryCount: entryCount, offset: offset, size: size, visit)
        }
        var hashes = Set<Int>()
        var shared = Set<Int>()
        var last: ZipEntry?
        try walk { entry in
            if !hashes.insert(entry.name.hashValue).inserted { shared.insert(entry.name.hashValue) }
            if entry.localHeaderOffset >= last?.localHeaderOffset ?? 0 { last = entry }
            return true
        }
        guard !shared.isEmpty else { return last }
        var first: [String: Int] = [:]
        try walk { entry throws(ArtifactError) in
            guard shared.contains(entry.name.hashValue) else { return true }
            if let earlier = first[entry.name] {
                throw ArtifactError(
                    Self.structure,
                    file: source.name,
                    offset: entry.nameOffset,
                    "a second entry named \"\(entry.name)\" (the first's record is at \(earlier)): readers differ on which they take, and Android's libziparchive refuses the archive"
                )
            }
            first[entry.name] = entry.recordOffset
            return true
        }
        return last
    }

    /// The central directory record at `position` in `directory`, which moves past it; its name checked, and its
    /// local header and data before `dataEnd`, where the central directory starts.
    private static func record(_ directory: ByteReader, at position: inout Int, dataEnd: Int) throws(ArtifactError) -> ZipEntry {
        let start = position
        guard try directory.uint32(at: start) == 0x0201_4B50 else {
            throw directory.error("no central directory file header signature (PK\\1\\2)", at: start)
        }
        let nameLength = Int(try directory.uint16(at: start + 28))
        let extraLength = Int(try directory.uint16(at: start + 30))
        let commentLength = Int(try directory.uint16(at: start + 32))
        let nameStart = start + 46
        guard nameLength + extraLength + commentLength <= directory.count - nameStart else {
            throw directory.error("the record's name, extra field and comment run past the central directory", at: start + 28)
        }
        var sizes = (compressed: try directory.size32(at: start + 20), uncompressed: try directory.size32(at: start + 24))
        var localOffset = try directory.size32(at: start + 42)
        try zip64Extra(directory, at: nameStart + nameLength, length: extraLength, sizes: &sizes, localOffset: &localOffset)
        position = nameStart + nameLength + extraLength + commentLength
        let nameBytes = try directory.bytes(at: nameStart, count: nameLength, "the entry's name")
        let name = String(decoding: nameBytes, as: UTF8.self)
        if let problem = EntryName.problem(name, bytes: nameBytes) {
            throw directory.error("the entry name \"\(name)\" is refused: \(problem)", at: nameStart)
        }
        guard localOffset <= dataEnd - 30, sizes.compressed <= dataEnd - 30 - localOffset else {
            throw directory.error(
                "entry \"\(name)\": its local header at \(localOffset) and \(sizes.compressed) bytes of data do not fit before the central directory at \(dataEnd)",
                at: start + 42
            )
        }
        return ZipEntry(
            name: name,
            flags: try directory.uint16(at: start + 8),
            method: try directory.uint16(at: start + 10),
            crc32: try directory.uint32(at: start + 16),
            compressedSize: sizes.compressed,
            uncompressedSize: sizes.uncompressed,
            localHeaderOffset: localOffset,
            recordOffset: directory.base + start
        )
    }

    /// The ZIP64 extended information extra field (header 0x0001): a 64-bit value for each field that is
    /// 0xFFFFFFFF, in the order uncompressed size, compressed size, local header offset.
    private static func zip64Extra(
        _ directory: ByteReader,
        at start: Int,
        length: Int,
        sizes: inout (compressed: Int, uncompressed: Int),
        localOffset: inout Int
    ) throws(ArtifactError) {
        var field = start
        while field + 4 <= start + length {
            let id = try directory.uint16(at: field)
            let size = Int(try directory.uint16(at: field + 2))
            let end = field + 4 + size
            guard end <= start + length else { throw directory.error("an extra field runs past its record", at: field) }
            if id == 0x0001 {
                var value = field + 4
                func next() throws(ArtifactError) -> Int {
                    guard value + 8 <= end else { throw directory.error("the ZIP64 extra field is too short", at: field) }
                    defer { value += 8 }
                    return try directory.size64(at: value, field: "a ZIP64 size or offset")
                }
                if sizes.uncompressed == 0xFFFF_FFFF { sizes.uncompressed = try next() }
                if sizes.compressed == 0xFFFF_FFFF { sizes.compressed = try next() }
                if localOffset == 0xFFFF_FFFF { localOffset = try next() }
            }
            field = end
        }
    }
}
