/// One file of a zip archive, as its central directory record describes it (PKWARE's APPNOTE.TXT 4.3.12, with
/// the ZIP64 extra field of 4.5.3).
struct ZipEntry {
    let name: String
    let flags: UInt16
    let method: UInt16
    let crc32: UInt32
    let compressedSize: Int
    let uncompressedSize: Int
    let localHeaderOffset: Int
    /// Where the entry's central directory record is, for errors.
    let recordOffset: Int
}

/// A zip archive's central directory, read where it lies at the end of the file: the end of central directory
/// record (APPNOTE.TXT 4.3.16, or its ZIP64 form, 4.3.14 and 4.3.15), then the records, a window at a time, so
/// that an archive of any number of files costs the memory of one window. ZIPFoundation 0.9.20 lists entries
/// too, but keeps their data offsets internal and, on Linux, inflates past an entry's compressed bytes to the end
/// of the file, where a deflate stream that never ends loops forever (weichsel/ZIPFoundation pull request 389);
/// so this reads the directory, and `ZipEntryReader` feeds ZIPFoundation's inflater the entry's own bytes only.
/// Every name is checked: none may climb out of the archive (`..`, a leading `/`).
struct ZipDirectory {
    /// The largest central directory read: an app of 100,000 files has about 10 MiB.
    static let maximumSize = 64 << 20
    /// The window the records are read through: larger than any one record (46 bytes and three 16-bit lengths).
    static let window = 1 << 20

    let source: any ArtifactBytes
    /// How many records the end record counts.
    let count: Int
    /// Where the central directory starts: no entry's data may reach it.
    let directoryOffset: Int
    let directorySize: Int

    init(_ source: some ArtifactBytes) throws(ArtifactError) {
        let (count, size, offset) = try Self.endRecord(source)
        guard size <= Self.maximumSize else {
            throw ArtifactError("zip central directory", file: source.name, offset: offset, "\(size) bytes, over the limit of \(Self.maximumSize)")
        }
        guard count <= size / 46 else {
            throw ArtifactError("zip central directory", file: source.name, offset: offset, "\(count) entries cannot fit in \(size) bytes")
        }
        self.source = source
        self.count = count
        self.directoryOffset = offset
        self.directorySize = size
    }

    /// Hands each entry to `visit`, in directory order, until it returns false.
    func forEach(_ visit: (ZipEntry) throws(ArtifactError) -> Bool) throws(ArtifactError) {
        let end = directoryOffset + directorySize
        var window = ByteReader([], base: directoryOffset, file: source.name, structure: "zip central directory", bigEndian: false)
        var position = directoryOffset
        for _ in 0..<count {
            // A record is 46 bytes and three lengths of at most 65,535 each; read on when the window ends sooner.
            if position + 46 + 3 * 0xFFFF > window.base + window.count, window.base + window.count < end {
                let next = position..<min(end, position + Self.window)
                window = ByteReader(
                    try source.read(next, for: "zip central directory"),
                    base: position,
                    file: source.name,
                    structure: "zip central directory",
                    bigEndian: false
                )
            }
            var at = position - window.base
            let entry = try Self.record(window, at: &at)
            try Self.checkName(entry, window)
            position = window.base + at
            guard try visit(entry) else { return }
        }
    }

    /// The entry count, size and offset of the central directory, from the end records.
    private static func endRecord(_ source: some ArtifactBytes) throws(ArtifactError) -> (count: Int, size: Int, offset: Int) {
        let tailStart = max(0, source.count - (22 + 0xFFFF))
        let tail = ByteReader(
            try source.read(tailStart..<source.count, for: "zip end of central directory"),
            base: tailStart,
            file: source.name,
            structure: "zip end of central directory",
            bigEndian: false
        )
        var candidate = tail.count - 22
        while candidate >= 0 {
            if try tail.uint32(at: candidate) == 0x0605_4B50, try Int(tail.uint16(at: candidate + 20)) == tail.count - candidate - 22 { break }
            candidate -= 1
        }
        guard candidate >= 0 else {
            throw tail.error("no end of central directory record: not a zip archive, or a truncated one", at: max(0, tail.count - 22))
        }
        guard try tail.uint16(at: candidate + 4) == 0, try tail.uint16(at: candidate + 6) == 0 else {
            throw tail.error("a multi-disk archive", at: candidate + 4)
        }
        let count = Int(try tail.uint16(at: candidate + 10))
        let size = try tail.size32(at: candidate + 12)
        let offset = try tail.size32(at: candidate + 16)
        let end = tailStart + candidate
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            return try zip64EndRecord(source, before: end)
        }
        guard offset <= end, size <= end - offset else {
            throw tail.error("the central directory (\(size) bytes at \(offset)) does not end before this record at \(end)", at: candidate + 12)
        }
        return (count, size, offset)
    }

    private static func zip64EndRecord(_ source: some ArtifactBytes, before end: Int) throws(ArtifactError) -> (count: Int, size: Int, offset: Int) {
        guard end >= 20 else { throw ArtifactError("zip64 end of central directory locator", file: source.name, offset: end, "missing") }
        let locator = ByteReader(
            try source.read((end - 20)..<end, for: "zip64 locator"),
            base: end - 20,
            file: source.name,
            structure: "zip64 end of central directory locator",
            bigEndian: false
        )
        guard try locator.uint32(at: 0) == 0x0706_4B50 else { throw locator.error("missing", at: 0) }
        let recordOffset = try locator.size64(at: 8, field: "the record's offset")
        guard recordOffset <= end - 20 - 56 else { throw locator.error("the record's offset \(recordOffset) is not before the locator", at: 8) }
        let record = ByteReader(
            try source.read(recordOffset..<(recordOffset + 56), for: "zip64 end of central directory"),
            base: recordOffset,
            file: source.name,
            structure: "zip64 end of central directory",
            bigEndian: false
        )
        guard try record.uint32(at: 0) == 0x0606_4B50 else { throw record.error("missing", at: 0) }
        let count = try record.size64(at: 32, field: "the entry count")
        let size = try record.size64(at: 40, field: "the directory size")
        let offset = try record.size64(at: 48, field: "the directory offset")
        guard offset <= recordOffset, size <= recordOffset - offset else {
            throw record.error("the central directory (\(size) bytes at \(offset)) does not end before this record", at: 40)
        }
        return (count, size, offset)
    }

    /// The central directory record at `position`, which moves past it.
    private static func record(_ directory: ByteReader, at position: inout Int) throws(ArtifactError) -> ZipEntry {
        let start = position
        guard try directory.uint32(at: start) == 0x0201_4B50 else { throw directory.error("not a central directory record", at: start) }
        let nameLength = Int(try directory.uint16(at: start + 28))
        let extraLength = Int(try directory.uint16(at: start + 30))
        let commentLength = Int(try directory.uint16(at: start + 32))
        let nameStart = start + 46
        guard nameStart + nameLength + extraLength + commentLength <= directory.count else {
            throw directory.error("the record's name, extra field and comment run past the central directory", at: start + 28)
        }
        var sizes = (compressed: try directory.size32(at: start + 20), uncompressed: try directory.size32(at: start + 24))
        var localOffset = try directory.size32(at: start + 42)
        try zip64Extra(directory, at: nameStart + nameLength, length: extraLength, sizes: &sizes, localOffset: &localOffset)
        position = nameStart + nameLength + extraLength + commentLength
        return ZipEntry(
            name: String(decoding: directory.bytes[nameStart..<(nameStart + nameLength)], as: UTF8.self),
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

    /// Refuses a name that is empty, holds a NUL, starts with `/`, or has a `..` component (either separator).
    private static func checkName(_ entry: ZipEntry, _ window: ByteReader) throws(ArtifactError) {
        let components = entry.name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
        guard !entry.name.isEmpty, !entry.name.contains("\0"), !entry.name.hasPrefix("/"), !components.contains("..") else {
            throw window.error("the entry name \"\(entry.name)\" climbs out of the archive", at: entry.recordOffset - window.base + 46)
        }
    }
}
