/// Little-endian reads from a window of a byte array with every bound checked: the readers of binary formats
/// (zip records, the APK Signing Block, binary XML, resources.arsc) go through it, so that a length or offset
/// that points outside its structure becomes an ``ArtifactError`` with the absolute offset, never a trap.
/// A sub-reader shares the array; nothing is copied.
struct ByteReader {
    private let bytes: [UInt8]
    /// Where the window starts in `bytes`.
    private let start: Int
    /// The window's length.
    let count: Int
    /// The absolute offset of the window's first byte in the file, for errors.
    let base: Int
    let structure: String
    let file: String

    init(_ bytes: [UInt8], base: Int = 0, structure: String, file: String) {
        self.init(bytes, start: 0, count: bytes.count, base: base, structure: structure, file: file)
    }

    private init(_ bytes: [UInt8], start: Int, count: Int, base: Int, structure: String, file: String) {
        self.bytes = bytes
        self.start = start
        self.count = count
        self.base = base
        self.structure = structure
        self.file = file
    }

    /// An error at `offset` (relative to the window) in this reader's structure.
    func error(at offset: Int, _ message: String) -> ArtifactError {
        ArtifactError(structure, file: file, offset: base + offset, message)
    }

    /// Throws unless `offset..<offset + length` lies inside the window.
    func check(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            let at = max(0, min(offset, count))
            throw error(at: at, "\(what()) (\(length) bytes at offset \(base + offset)) runs past the end of the \(structure) at \(base + count)")
        }
    }

    func u8(_ offset: Int) throws -> UInt8 {
        try check(offset, 1, "a byte")
        return bytes[start + offset]
    }

    func u16(_ offset: Int) throws -> UInt16 {
        try check(offset, 2, "a 16-bit field")
        return UInt16(bytes[start + offset]) | UInt16(bytes[start + offset + 1]) << 8
    }

    func u32(_ offset: Int) throws -> UInt32 {
        try check(offset, 4, "a 32-bit field")
        var value: UInt32 = 0
        for index in (0..<4).reversed() { value = value << 8 | UInt32(bytes[start + offset + index]) }
        return value
    }

    func u64(_ offset: Int) throws -> UInt64 {
        try check(offset, 8, "a 64-bit field")
        var value: UInt64 = 0
        for index in (0..<8).reversed() { value = value << 8 | UInt64(bytes[start + offset + index]) }
        return value
    }

    /// A 32-bit field as a non-negative `Int`.
    func int32(_ offset: Int) throws -> Int { Int(try u32(offset)) }

    /// `length` bytes at `offset`.
    func slice(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws -> ArraySlice<UInt8> {
        try check(offset, length, what())
        return bytes[(start + offset)..<(start + offset + length)]
    }

    /// A reader over the same window, naming another structure in its errors.
    init(_ other: ByteReader, structure: String) {
        self.init(other.bytes, start: other.start, count: other.count, base: other.base, structure: structure, file: other.file)
    }

    /// A reader over `length` bytes at `offset`, keeping absolute offsets.
    func sub(_ offset: Int, _ length: Int, structure: String? = nil, _ what: @autoclosure () -> String) throws -> ByteReader {
        try check(offset, length, what())
        return ByteReader(bytes, start: start + offset, count: length, base: base + offset, structure: structure ?? self.structure, file: file)
    }
}
