extension ZipDirectory {
    /// Where the end records say the central directory is.
    struct End {
        /// Where the end-of-central-directory record starts.
        let recordOffset: Int
        let entryCount: Int
        let directoryOffset: Int
        let directorySize: Int
    }

    /// The end-of-central-directory record (APPNOTE.TXT 4.3.16): the last 22 bytes when there is no comment,
    /// otherwise the one whose comment length reaches exactly the end of the file, searched in the last
    /// 64 KiB + 22 bytes as apksig's `ZipUtils.findZipEndOfCentralDirectoryRecord` searches it; then its ZIP64
    /// form when its fields say so and a locator is there (4.3.14, 4.3.15). A comment that itself holds the
    /// signature is refused: readers that take the last signature found would read another directory.
    static func locateEnd(_ source: some ByteSource) throws(ArtifactError) -> End {
        let tailStart = max(0, source.count - (22 + 0xFFFF))
        let tail = ByteReader(
            try source.read(tailStart..<source.count, for: endStructure),
            base: tailStart,
            file: source.name,
            structure: endStructure
        )
        var candidate = tail.count - 22
        while candidate >= 0 {
            if try tail.uint32(at: candidate) == 0x0605_4B50, try Int(tail.uint16(at: candidate + 20)) == tail.count - candidate - 22 { break }
            candidate -= 1
        }
        guard candidate >= 0 else {
            throw tail.error("no end of central directory record: not a zip archive, or a truncated one", at: max(0, tail.count - 22))
        }
        for later in (candidate + 1)..<max(candidate + 1, tail.count - 3) where try tail.uint32(at: later) == 0x0605_4B50 {
            throw tail.error("the archive comment holds a second end of central directory signature", at: later)
        }
        guard try tail.uint16(at: candidate + 4) == 0, try tail.uint16(at: candidate + 6) == 0 else {
            throw tail.error("a multi-disk archive", at: candidate + 4)
        }
        let count = Int(try tail.uint16(at: candidate + 10))
        let size = try tail.size32(at: candidate + 12)
        let offset = try tail.size32(at: candidate + 16)
        let record = tailStart + candidate
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF, let zip64 = try zip64End(source, before: record) {
            return zip64
        }
        guard offset <= record, size <= record - offset else {
            throw tail.error("the central directory (\(size) bytes at \(offset)) does not end before this record at \(record)", at: candidate + 12)
        }
        return End(recordOffset: record, entryCount: count, directoryOffset: offset, directorySize: size)
    }

    /// The ZIP64 end-of-central-directory locator (the 20 bytes before the record) and the record it points
    /// at; nil without a locator, when the 32-bit fields hold the values.
    private static func zip64End(_ source: some ByteSource, before end: Int) throws(ArtifactError) -> End? {
        let structure = "zip64 end of central directory locator"
        guard end >= 20 else { return nil }
        let locator = ByteReader(try source.read((end - 20)..<end, for: structure), base: end - 20, file: source.name, structure: structure)
        guard try locator.uint32(at: 0) == 0x0706_4B50 else { return nil }
        let recordOffset = try locator.size64(at: 8, field: "the record's offset")
        guard recordOffset <= end - 20 - 56 else { throw locator.error("the record's offset \(recordOffset) is not before the locator", at: 8) }
        let record = ByteReader(
            try source.read(recordOffset..<(recordOffset + 56), for: "zip64 end of central directory record"),
            base: recordOffset,
            file: source.name,
            structure: "zip64 end of central directory record"
        )
        guard try record.uint32(at: 0) == 0x0606_4B50 else { throw record.error("no ZIP64 end of central directory signature", at: 0) }
        let count = try record.size64(at: 32, field: "the entry count")
        let size = try record.size64(at: 40, field: "the directory size")
        let offset = try record.size64(at: 48, field: "the directory offset")
        guard offset <= recordOffset, size <= recordOffset - offset else {
            throw record.error("the central directory (\(size) bytes at \(offset)) does not end before this record", at: 40)
        }
        return End(recordOffset: recordOffset, entryCount: count, directoryOffset: offset, directorySize: size)
    }
}
