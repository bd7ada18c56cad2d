import AppFlipArtifacts
import Foundation
import ZIPFoundation

/// Builders of hostile artifacts for the table in ``HostileArtifactTests``: a stored-only zip writer that
/// writes any name and size, little-endian patches of real artifacts, and protobuf nesting.
enum HostileBytes {
    /// One entry as written: its name, its bytes as they lie (stored, or a deflate stream), and what its headers
    /// declare, true or not.
    struct Entry {
        var name: String
        var data: [UInt8]
        var method = 0
        var size: Int
        var crc: UInt32

        /// A stored entry, its headers true.
        init(_ name: String, _ data: [UInt8]) {
            self.name = name
            self.data = data
            self.size = data.count
            self.crc = HostileBytes.crc32(data)
        }

        init(name: String, deflated stream: [UInt8], size: Int, crc: UInt32) {
            self.name = name
            self.data = stream
            self.method = 8
            self.size = size
            self.crc = crc
        }
    }

    /// A zip of stored entries, named and filled as given (APPNOTE.TXT 4.3.7, 4.3.12, 4.3.16).
    static func zip(_ entries: [(name: String, data: [UInt8])], comment: [UInt8] = []) -> [UInt8] {
        zip(entries.map { Entry($0.name, $0.data) }, comment: comment)
    }

    /// A zip of `entries`, written as they say.
    static func zip(_ entries: [Entry], comment: [UInt8] = []) -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let offset = out.count
            let name = Array(entry.name.utf8)
            let fields = le16(entry.method) + le32(0) + le32(entry.crc) + le32(entry.data.count) + le32(entry.size) + le16(name.count)
            out += le32(0x0403_4b50) + le16(20) + le16(0) + fields + le16(0) + name + entry.data
            directory += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + fields + le16(0) + le16(0) + le16(0) + le16(0) + le32(0)
            directory += le32(offset) + name
        }
        let directoryOffset = out.count
        out += directory
        out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(entries.count) + le16(entries.count) + le32(directory.count) + le32(directoryOffset)
        out += le16(comment.count) + comment
        return out
    }

    /// An in-memory zip with one deflated entry of `size` zero bytes, written by ZIPFoundation in chunks.
    static func deflatedZeros(name: String, size: Int) throws -> [UInt8] {
        let archive = try Archive(data: Data(), accessMode: .create)
        let chunk = Data(count: 64 << 10)
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(size), compressionMethod: .deflate) { position, length in
            chunk.prefix(min(length, size - Int(position)))
        }
        return Array(archive.data!)
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> ($0 * 8) & 0xFF) } }
    static func le32(_ value: UInt32) -> [UInt8] { le32(Int(value)) }

    static func read32(_ bytes: [UInt8], _ offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << ($1 * 8) } }
    static func read16(_ bytes: [UInt8], _ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }

    /// `bytes` with a 32-bit little-endian value written at `offset`.
    static func patch32(_ bytes: [UInt8], at offset: Int, _ value: Int) -> [UInt8] {
        var copy = bytes
        copy.replaceSubrange(offset..<(offset + 4), with: le32(value))
        return copy
    }

    static func patch64(_ bytes: [UInt8], at offset: Int, _ value: UInt64) -> [UInt8] {
        var copy = bytes
        copy.replaceSubrange(offset..<(offset + 8), with: (0..<8).map { UInt8(value >> (UInt64($0) * 8) & 0xFF) })
        return copy
    }

    /// The end record's central directory offset, and the signing block's footer offset before it.
    static func directoryOffset(_ apk: [UInt8]) -> Int { read32(apk, apk.count - 22 + 16) }

    /// A protobuf `XmlNode` whose elements nest `depth` deep: `element { child { element { … } } }`.
    static func nestedXmlNode(depth: Int) -> [UInt8] {
        var node: [UInt8] = [0x0A] + varint(9) + [0x1A, 0x07] + Array("element".utf8)
        for _ in 0..<depth {
            let element = [0x1A, 0x01, 0x65] + [0x2A] + varint(node.count) + node
            node = [0x0A] + varint(element.count) + element
        }
        return node
    }

    static func varint(_ value: Int) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            out.append(UInt8(value & 0x7F) | (value > 0x7F ? 0x80 : 0))
            value >>= 7
        } while value > 0
        return out
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
