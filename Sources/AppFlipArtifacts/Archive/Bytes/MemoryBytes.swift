/// Bytes already in memory: a test's or a fuzzer's input, an entry inflated from an archive.
public struct MemoryBytes: ByteSource {
    public let name: String
    public let bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    public var count: Int { bytes.count }

    public func read(at offset: Int, count length: Int) throws(ArtifactError) -> [UInt8] {
        precondition(offset >= 0 && length >= 0 && length <= bytes.count - offset, "read outside the bytes")
        return Array(bytes[offset..<(offset + length)])
    }
}
