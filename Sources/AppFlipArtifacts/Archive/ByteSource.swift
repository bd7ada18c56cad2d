import Glibc

/// Bytes read where they lie, by offset: a file on disk (``FileBytes``) or bytes already in memory
/// (``MemoryBytes``: a test's or a fuzzer's input, an inflated archive entry). The readers ask only for the
/// ranges they need, so an archive is never read whole.
public protocol ByteSource {
    /// The total size in bytes.
    var count: Int { get }
    /// The bytes in `range`, which the caller has checked lies within `0..<count`.
    func read(_ range: Range<Int>) throws -> [UInt8]
}

extension ByteSource {
    /// The bytes at `offset..<offset + length`, or an ``ArtifactError`` naming `structure` when they run past
    /// the end.
    func read(at offset: Int, length: Int, structure: String, file: String) throws -> [UInt8] {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            throw ArtifactError(structure, file: file, offset: offset, "\(length) bytes needed, the file ends at \(count)")
        }
        return try read(offset..<(offset + length))
    }
}

/// Bytes already in memory.
public struct MemoryBytes: ByteSource, Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var count: Int { bytes.count }

    public func read(_ range: Range<Int>) throws -> [UInt8] { Array(bytes[range]) }
}

/// A file opened read-only, read with `pread` at the offsets asked for. It owns its descriptor.
public final class FileBytes: ByteSource {
    public let path: String
    public let count: Int
    private let descriptor: Int32

    /// Opens `path`; an ``ArtifactError`` when it cannot be opened or is not a regular file.
    public init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ArtifactError("file", file: path, String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw ArtifactError("file", file: path, "not a regular file")
        }
        self.path = path
        self.descriptor = descriptor
        self.count = Int(status.st_size)
    }

    deinit { close(descriptor) }

    public func read(_ range: Range<Int>) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: range.count)
        var done = 0
        try result.withUnsafeMutableBytes { buffer in
            while done < range.count {
                let got = pread(descriptor, buffer.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    throw ArtifactError(
                        "file",
                        file: path,
                        offset: range.lowerBound + done,
                        got < 0 ? String(cString: strerror(errno)) : "unexpected end of file"
                    )
                }
                done += got
            }
        }
        return result
    }
}
