/// A `ResStringPool` chunk (AOSP `libs/androidfw/include/androidfw/ResourceTypes.h`, `struct
/// ResStringPool_header`; `libs/androidfw/ResourceTypes.cpp`, `ResStringPool::setTo` and `stringAt`): the
/// strings of a binary XML document or a resource table, UTF-8 or UTF-16, decoded on demand with every
/// offset and length checked as `ResStringPool` checks them.
struct StringPool {
    static let chunkType: UInt16 = 0x0001
    private static let utf8Flag: UInt32 = 0x100

    let reader: ByteReader
    let count: Int
    let isUTF8: Bool
    /// Where the string data starts and ends, relative to the chunk.
    private let stringsStart: Int
    private let stringsEnd: Int

    /// Reads the pool header of `chunk`, a reader over exactly the chunk.
    init(chunk: ByteReader) throws {
        let reader = ByteReader(chunk, structure: chunk.structure)
        let headerSize = Int(try reader.uint16(at: 2))
        guard headerSize >= 28 else { throw reader.error("a string pool header of \(headerSize) bytes, under 28", at: 2) }
        let stringCount = try reader.size32(at: 8)
        let styleCount = try reader.size32(at: 12)
        let flags = try reader.uint32(at: 16)
        let stringsStart = try reader.size32(at: 20)
        let stylesStart = try reader.size32(at: 24)
        guard stringCount <= (reader.count - headerSize) / 4 else {
            throw reader.error("\(stringCount) string offsets do not fit in a pool of \(reader.count) bytes", at: 8)
        }
        guard styleCount <= (reader.count - headerSize - stringCount * 4) / 4 else {
            throw reader.error("\(styleCount) style offsets do not fit in a pool of \(reader.count) bytes", at: 12)
        }
        let stringsEnd = styleCount > 0 && stylesStart > stringsStart ? stylesStart : reader.count
        if stringCount > 0 {
            guard stringsStart >= headerSize + (stringCount + styleCount) * 4, stringsStart < stringsEnd, stringsEnd <= reader.count else {
                throw reader.error("the strings start at \(stringsStart), outside the pool's \(reader.count) bytes after its offsets", at: 20)
            }
        }
        self.reader = reader
        self.count = stringCount
        self.isUTF8 = flags & Self.utf8Flag != 0
        self.stringsStart = stringsStart
        self.stringsEnd = stringsEnd
    }

    /// String `index`; an ``ArtifactError`` when the index, its offset or its length is out of bounds or the
    /// string is not NUL-terminated.
    func string(_ index: Int) throws -> String {
        guard index >= 0, index < count else {
            throw reader.error("string #\(index) asked for, the pool has \(count)", at: 8)
        }
        let offset = try reader.size32(at: 28 + index * 4)
        guard offset < stringsEnd - stringsStart else {
            throw reader.error(
                "string #\(index) at offset \(offset) lies past the string data (\(stringsEnd - stringsStart) bytes)",
                at: 28 + index * 4
            )
        }
        let data = try reader.reader(at: stringsStart, count: stringsEnd - stringsStart, "the string data")
        return isUTF8 ? try utf8String(data, at: offset, index: index) : try utf16String(data, at: offset, index: index)
    }

    /// A string index that may be `0xFFFFFFFF`, "none".
    func optionalString(_ reference: UInt32) throws -> String? {
        reference == 0xFFFF_FFFF ? nil : try string(Int(reference))
    }

    /// UTF-8: the length in UTF-16 units, then in bytes (each one or two bytes, the high bit marking two),
    /// the bytes, and a NUL.
    private func utf8String(_ data: ByteReader, at offset: Int, index: Int) throws -> String {
        var position = offset
        _ = try Self.utf8Length(data, &position)
        let byteCount = try Self.utf8Length(data, &position)
        guard byteCount < data.count - position, try data.uint8(at: position + byteCount) == 0 else {
            throw data.error(
                "string #\(index): \(byteCount) bytes from \(data.base + position) run past the string data or are not NUL-terminated",
                at: offset
            )
        }
        return String(decoding: try data.bytes(at: position, count: byteCount, "string #\(index)"), as: UTF8.self)
    }

    private static func utf8Length(_ data: ByteReader, _ position: inout Int) throws -> Int {
        let first = Int(try data.uint8(at: position))
        position += 1
        guard first & 0x80 != 0 else { return first }
        let second = Int(try data.uint8(at: position))
        position += 1
        return (first & 0x7F) << 8 | second
    }

    /// UTF-16: the length in units (one unit, or two when its high bit is set), the units, and a NUL unit.
    private func utf16String(_ data: ByteReader, at offset: Int, index: Int) throws -> String {
        var position = offset
        var length = Int(try data.uint16(at: position))
        position += 2
        if length & 0x8000 != 0 {
            length = (length & 0x7FFF) << 16 | Int(try data.uint16(at: position))
            position += 2
        }
        guard length < (data.count - position) / 2, try data.uint16(at: position + length * 2) == 0 else {
            throw data.error(
                "string #\(index): \(length) UTF-16 units from \(data.base + position) run past the string data or are not NUL-terminated",
                at: offset
            )
        }
        var units: [UInt16] = []
        units.reserveCapacity(length)
        for unit in 0..<length { units.append(try data.uint16(at: position + unit * 2)) }
        return String(decoding: units, as: UTF16.self)
    }
}
