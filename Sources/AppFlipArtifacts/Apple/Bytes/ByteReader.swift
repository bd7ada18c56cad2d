/// Bounds-checked reads of fixed-width integers from bytes read at `base` in `file`, so that every failure is
/// an `ArtifactError` naming the structure and the offset in the file.
struct ByteReader {
    let bytes: [UInt8]
    /// The file offset of `bytes[0]`.
    let base: Int
    let file: String
    let structure: String
    let bigEndian: Bool

    init(_ bytes: [UInt8], base: Int, file: String, structure: String, bigEndian: Bool) {
        self.bytes = bytes
        self.base = base
        self.file = file
        self.structure = structure
        self.bigEndian = bigEndian
    }

    var count: Int { bytes.count }

    func uint8(at offset: Int) throws(ArtifactError) -> UInt8 {
        try check(offset, 1)
        return bytes[offset]
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

    /// The NUL-terminated string at `offset`, which must end before `limit`; nil when it does not.
    func cString(at offset: Int, limit: Int) -> String? {
        guard offset >= 0, offset <= limit, limit <= bytes.count,
            let end = bytes[offset..<limit].firstIndex(of: 0)
        else { return nil }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    /// An error at `offset` within these bytes, reported at its file offset.
    func error(_ message: String, at offset: Int) -> ArtifactError {
        ArtifactError(structure, file: file, offset: base + offset, message)
    }

    private func check(_ offset: Int, _ width: Int) throws(ArtifactError) {
        guard offset >= 0, offset <= bytes.count - width else {
            throw error("\(width) bytes needed, but the \(structure) ends after \(bytes.count)", at: max(0, offset))
        }
    }

    private func integer(at offset: Int, width: Int) throws(ArtifactError) -> UInt64 {
        try check(offset, width)
        var value: UInt64 = 0
        for index in 0..<width {
            let byte = UInt64(bytes[offset + (bigEndian ? index : width - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }
}
