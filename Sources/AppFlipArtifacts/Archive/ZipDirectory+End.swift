extension ZipDirectory {
    /// Where the end records say the central directory is.
    struct End {
        let eocdOffset: Int
        /// The first byte of the end records (the ZIP64 record when there is one): the directory ends before it.
        let recordsStart: Int
        let directoryOffset: Int
        let directorySize: Int
        let entryCount: Int
    }

    /// The end-of-central-directory record: the last 22 bytes when there is no comment, otherwise the one
    /// whose comment length reaches exactly the end of the file, searched in the last 64 KiB + 22 bytes.
    /// A comment that itself holds the signature is refused: readers that take the last signature found
    /// (ZIPFoundation among them) would read another directory than this one.
    static func locateEnd(source: some ByteSource, file: String) throws -> End {
        let size = source.count
        guard size >= 22 else { throw ArtifactError(eocdStructure, file: file, offset: 0, "the file is \(size) bytes, too short for a zip") }
        let window = min(size, 22 + 0xFFFF)
        let tail = ByteReader(try source.read((size - window)..<size), base: size - window, structure: eocdStructure, file: file)
        var found: Int?
        var position = window - 22
        while position >= 0 {
            if try tail.u32(position) == 0x0605_4b50, Int(try tail.u16(position + 20)) == window - position - 22 {
                found = position
                break
            }
            position -= 1
        }
        guard let eocd = found else {
            throw ArtifactError(
                eocdStructure,
                file: file,
                offset: size - window,
                "no end-of-central-directory record in the last \(window) bytes: not a zip archive"
            )
        }
        for later in (eocd + 1)..<max(eocd + 1, window - 3) where try tail.u32(later) == 0x0605_4b50 {
            throw ArtifactError(
                eocdStructure,
                file: file,
                offset: tail.base + later,
                "the archive comment holds a second end-of-central-directory signature"
            )
        }
        guard try tail.u16(eocd + 4) == 0, try tail.u16(eocd + 6) == 0 else {
            throw tail.error(at: eocd, "a multi-disk archive")
        }
        var entryCount = Int(try tail.u16(eocd + 10))
        var directorySize = Int(try tail.u32(eocd + 12))
        var directoryOffset = Int(try tail.u32(eocd + 16))
        let eocdOffset = tail.base + eocd
        var recordsStart = eocdOffset
        if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF,
            let zip64 = try readZip64End(source: source, file: file, eocdOffset: eocdOffset)
        {
            (entryCount, directorySize, directoryOffset, recordsStart) = zip64
        }
        return End(
            eocdOffset: eocdOffset,
            recordsStart: recordsStart,
            directoryOffset: directoryOffset,
            directorySize: directorySize,
            entryCount: entryCount
        )
    }

    /// The ZIP64 end-of-central-directory locator (20 bytes before the record) and the record it points to
    /// (APPNOTE.TXT 4.3.14, 4.3.15), or nil when there is no locator.
    private static func readZip64End(source: some ByteSource, file: String, eocdOffset: Int) throws -> (Int, Int, Int, Int)? {
        guard eocdOffset >= 20 else { return nil }
        let locator = ByteReader(
            try source.read(at: eocdOffset - 20, length: 20, structure: "zip64 end of central directory locator", file: file),
            base: eocdOffset - 20,
            structure: "zip64 end of central directory locator",
            file: file
        )
        guard try locator.u32(0) == 0x0706_4b50 else { return nil }
        let recordOffset = try locator.u64(8)
        guard eocdOffset >= 76, recordOffset <= UInt64(eocdOffset - 76) else {
            throw locator.error(at: 8, "the ZIP64 record at \(recordOffset) does not fit before the locator")
        }
        let record = ByteReader(
            try source.read(at: Int(recordOffset), length: 56, structure: "zip64 end of central directory record", file: file),
            base: Int(recordOffset),
            structure: "zip64 end of central directory record",
            file: file
        )
        guard try record.u32(0) == 0x0606_4b50 else { throw record.error(at: 0, "no ZIP64 end-of-central-directory signature") }
        let count = try record.u64(32)
        let size = try record.u64(40)
        let offset = try record.u64(48)
        guard count <= UInt64(Int32.max), size <= UInt64(Int.max), offset <= UInt64(Int.max) else {
            throw record.error(at: 32, "impossible central directory bounds")
        }
        return (Int(count), Int(size), Int(offset), Int(recordOffset))
    }
}
