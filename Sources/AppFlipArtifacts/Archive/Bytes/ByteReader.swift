/// Bounds-checked reads of fixed-width integers from a window of bytes read at `base` in `file`, little- or
/// big-endian: every reader of a binary format (zip records, the APK Signing Block, binary XML,
/// resources.arsc, Mach-O headers, code signatures, binary property lists) goes through it, so that a length
/// or an offset that points outside its structure becomes an ``ArtifactError`` naming the structure and the
/// offset in the file, never a trap. A sub-reader shares the bytes; nothing is copied.
struct ByteReader {
    private let storage: [UInt8]
    /// Where the window starts in `storage`.
    private let start: Int
    /// The window's length.
    let count: Int
    /// The file offset of the window's first byte, for errors.
    let base: Int
    let file: String
    let structure: String
    let bigEndian: Bool

    init(_ bytes: [UInt8], base: Int = 0, file: String, structure: String, bigEndian: Bool = false) {
        self.init(bytes, start: 0, count: bytes.count, base: base, file: file, structure: structure, bigEndian: bigEndian)
    }

    private init(_ storage: [UInt8], start: Int, count: Int, base: Int, file: String, structure: String, bigEndian: Bool) {
        self.storage = storage
        self.start = start
        self.count = count
        self.base = base
        self.file = file
        self.structure = structure
        self.bigEndian = bigEndian
    }

    /// The same window, naming another structure in its errors.
    init(_ other: ByteReader, structure: String) {
        self.init(
            other.storage,
            start: other.start,
            count: other.count,
            base: other.base,
            file: other.file,
            structure: structure,
            bigEndian: other.bigEndian
        )
    }

    /// An error at `offset` (relative to the window), reported at its file offset.
    func error(_ message: String, at offset: Int) -> ArtifactError {
        ArtifactError(structure, file: file, offset: base + offset, message)
    }

    /// Throws unless `offset..<offset + length` lies inside the window.
    func check(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws(ArtifactError) {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            throw error(
                "\(what()) (\(length) bytes at \(base + offset)) runs past the end of the \(structure) at \(base + count)",
                at: max(0, min(offset, count))
            )
        }
    }

    func uint8(at offset: Int) throws(ArtifactError) -> UInt8 {
        try check(offset, 1, "a byte")
        return storage[start + offset]
    }

    func uint16(at offset: Int) throws(ArtifactError) -> UInt16 { UInt16(truncatingIfNeeded: try integer(at: offset, width: 2)) }
    func uint32(at offset: Int) throws(ArtifactError) -> UInt32 { UInt32(truncatingIfNeeded: try integer(at: offset, width: 4)) }
    func uint64(at offset: Int) throws(ArtifactError) -> UInt64 { try integer(at: offset, width: 8) }

    /// A 32-bit field as a non-negative `Int`, for offsets and sizes.
    func size32(at offset: Int) throws(ArtifactError) -> Int { Int(try uint32(at: offset)) }

    /// A 64-bit offset or size, refused when it could not address a real file.
    func size64(at offset: Int, field: String) throws(ArtifactError) -> Int {
        let value = try uint64(at: offset)
        guard value <= UInt64(Int32.max) * 1024 else { throw error("\(field) \(value) is past any file's size", at: offset) }
        return Int(value)
    }

    /// The `length` bytes at `offset`.
    func bytes(at offset: Int, count length: Int, _ what: @autoclosure () -> String) throws(ArtifactError) -> ArraySlice<UInt8> {
        try check(offset, length, what())
        return storage[(start + offset)..<(start + offset + length)]
    }

    /// A reader over the `length` bytes at `offset`, keeping file offsets, naming `structure` (or this one).
    func reader(at offset: Int, count length: Int, structure: String? = nil, _ what: @autoclosure () -> String) throws(ArtifactError) -> ByteReader {
        try check(offset, length, what())
        return ByteReader(
            storage,
            start: start + offset,
            count: length,
            base: base + offset,
            file: file,
            structure: structure ?? self.structure,
            bigEndian: bigEndian
        )
    }

    /// The NUL-terminated string at `offset`, which must end before `limit`; nil when it does not.
    func cString(at offset: Int, limit: Int) -> String? {
        guard offset >= 0, offset <= limit, limit <= count,
            let end = storage[(start + offset)..<(start + limit)].firstIndex(of: 0)
        else { return nil }
        return String(decoding: storage[(start + offset)..<end], as: UTF8.self)
    }

    private func integer(at offset: Int, width: Int) throws(ArtifactError) -> UInt64 {
        try check(offset, width, "a \(width * 8)-bit field")
        var value: UInt64 = 0
        for index in 0..<width {
            value = value << 8 | UInt64(storage[start + offset + (bigEndian ? index : width - 1 - index)])
        }
        return value
    }
}
