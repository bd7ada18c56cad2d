import Foundation
import ZIPFoundation

extension ArtifactArchive {
    /// The size of each chunk read and inflated.
    static let chunkSize = 64 << 10

    /// The entry's bytes, when they are at most `limit` (``ArchiveLimits/maxEntryBytes`` by default).
    public func read(_ entry: ZipEntry, limit: Int? = nil) throws(ArtifactError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(entry.uncompressedSize, limit ?? limits.maxEntryBytes))
        try stream(entry, limit: limit) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Hands the entry's bytes, in order, to `consumer`, never more than it declares, than `limit`
    /// (``ArchiveLimits/maxEntryBytes`` by default) or than ``ArchiveLimits/maxRatio`` times its compressed
    /// size: stored entries as they lie, deflated ones through ZIPFoundation's inflater fed with the entry's own
    /// compressed bytes only. The size and the CRC-32 are checked at the end, so a lying header is caught.
    public func stream(_ entry: ZipEntry, limit: Int? = nil, to consumer: ([UInt8]) throws(ArtifactError) -> Void) throws(ArtifactError) {
        let data = try dataRange(of: entry)
        let ceiling = ceiling(entry, limit: limit ?? limits.maxEntryBytes)
        guard entry.uncompressedSize <= ceiling.bytes else {
            throw refusal(
                entry,
                offset: ceiling.bytes,
                "it declares \(entry.uncompressedSize) bytes, over the limit of \(ceiling.bytes)\(ceiling.why)"
            )
        }
        var produced = 0
        var checksum: UInt32 = 0
        func emit(_ chunk: [UInt8]) throws(ArtifactError) {
            guard chunk.count <= entry.uncompressedSize - produced else {
                throw refusal(entry, offset: entry.uncompressedSize, "it inflates past the \(entry.uncompressedSize) bytes it declares")
            }
            produced += chunk.count
            try consumer(chunk)
        }
        switch entry.method {
        case 0:
            guard data.count == entry.uncompressedSize else {
                throw refusal(entry, "stored, yet \(data.count) bytes compressed and \(entry.uncompressedSize) uncompressed")
            }
            var offset = data.lowerBound
            while offset < data.upperBound {
                let chunk = try source.read(at: offset, count: min(Self.chunkSize, data.upperBound - offset))
                checksum = Data(chunk).crc32(checksum: checksum)
                try emit(chunk)
                offset += chunk.count
            }
        case 8:
            checksum = try inflate(entry, data, emit)
        default:
            throw refusal(entry, "compression method \(entry.method) is neither stored (0) nor deflate (8)")
        }
        guard produced == entry.uncompressedSize else {
            throw refusal(entry, offset: produced, "it ends after \(produced) of the \(entry.uncompressedSize) bytes it declares")
        }
        guard checksum == entry.crc32 else {
            throw refusal(entry, "its CRC-32 is \(Self.hex(checksum)), not the \(Self.hex(entry.crc32)) it declares")
        }
    }

    /// The most bytes `entry` may give: `limit`, and for a deflated entry ``ArchiveLimits/maxRatio`` times its
    /// compressed size (a zip bomb's declared size); with what binds, for the message.
    private func ceiling(_ entry: ZipEntry, limit: Int) -> (bytes: Int, why: String) {
        guard entry.method == 8 else { return (limit, "") }
        let ratio = max(entry.compressedSize, 1).multipliedReportingOverflow(by: limits.maxRatio)
        guard !ratio.overflow, ratio.partialValue < limit else { return (limit, "") }
        return (ratio.partialValue, " (\(limits.maxRatio) times its \(entry.compressedSize) compressed bytes)")
    }

    /// Inflates the deflate stream in `data`, returning the CRC-32 of its output. ZIPFoundation's Linux inflater
    /// asks its provider for `chunkSize` bytes at a time and hands zlib that many whatever it got back: the last
    /// chunk is padded with zeros, and a request past the entry's bytes is refused, so a stream that does not
    /// end inside its entry fails instead of reading on, or looping once the file ends.
    private func inflate(_ entry: ZipEntry, _ data: Range<Int>, _ emit: ([UInt8]) throws(ArtifactError) -> Void) throws(ArtifactError) -> UInt32 {
        var next = data.lowerBound
        do {
            return try Data.decompress(
                size: Int64(data.count),
                bufferSize: Self.chunkSize,
                skipCRC32: false,
                provider: { _, size in
                    guard next < data.upperBound else {
                        throw refusal(entry, "the deflate stream does not end within its \(data.count) compressed bytes")
                    }
                    var chunk = try source.read(at: next, count: min(size, data.upperBound - next))
                    next += chunk.count
                    chunk += repeatElement(0, count: size - chunk.count)
                    return Data(chunk)
                },
                consumer: { try emit([UInt8]($0)) }
            )
        } catch let error as ArtifactError {
            throw error
        } catch {
            throw refusal(entry, "the deflate stream is corrupt (\(error))")
        }
    }

    /// Where the entry's data lies, from its local header (APPNOTE.TXT 4.3.7), which must repeat the central
    /// directory's name, and its data before the central directory.
    func dataRange(of entry: ZipEntry) throws(ArtifactError) -> Range<Int> {
        guard entry.flags & 1 == 0 else { throw refusal(entry, "it is encrypted") }
        let start = entry.localHeaderOffset
        let directoryOffset = directory.centralDirectoryOffset
        let header = ByteReader(
            try source.read(start..<(start + 30), for: "zip local header"),
            base: start,
            file: file,
            structure: "zip local header"
        )
        guard try header.uint32(at: 0) == 0x0403_4B50 else { throw header.error("no local file header for \"\(entry.name)\"", at: 0) }
        let nameLength = Int(try header.uint16(at: 26))
        let dataStart = start + 30 + nameLength + Int(try header.uint16(at: 28))
        guard dataStart <= directoryOffset, entry.compressedSize <= directoryOffset - dataStart else {
            throw header.error("\"\(entry.name)\"'s \(entry.compressedSize) bytes of data run into the central directory", at: 0)
        }
        let name = try source.read((start + 30)..<(start + 30 + nameLength), for: "zip local header")
        guard name.elementsEqual(entry.name.utf8) else {
            throw header.error("the local header names \"\(String(decoding: name, as: UTF8.self))\", the central directory \"\(entry.name)\"", at: 30)
        }
        return dataStart..<(dataStart + entry.compressedSize)
    }

    private func refusal(_ entry: ZipEntry, offset: Int? = nil, _ message: String) -> ArtifactError {
        ArtifactError("zip entry", file: file(of: entry), offset: offset, message)
    }

    private static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }
}
