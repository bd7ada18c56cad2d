#if canImport(Glibc)
import Glibc
#endif

/// Random access to an artifact's bytes, read where they lie: the readers ask for the few ranges they need
/// (a zip's central directory, a Mach-O's load commands and signature), never for the whole file.
protocol ArtifactBytes {
    /// What errors name: the file's path, or an archive entry's name.
    var name: String { get }
    /// The size in bytes.
    var count: Int { get }
    /// `length` bytes at `offset`, which must lie within `count`.
    func read(at offset: Int, count length: Int) throws(ArtifactError) -> [UInt8]
}

extension ArtifactBytes {
    /// Every byte, for a file whose size the caller has bounded.
    func readAll() throws(ArtifactError) -> [UInt8] { try read(at: 0, count: count) }

    /// The bytes of `range`, or an error naming `structure` when the file ends first.
    func read(_ range: Range<Int>, for structure: String) throws(ArtifactError) -> [UInt8] {
        guard range.lowerBound >= 0, range.upperBound <= count else {
            throw ArtifactError(
                structure,
                file: name,
                offset: range.lowerBound,
                "\(range.count) bytes needed, but the file ends at \(count)"
            )
        }
        return try read(at: range.lowerBound, count: range.count)
    }
}

/// Bytes already in memory: a fuzzer's input, a test's, an entry read from an archive.
struct MemoryBytes: ArtifactBytes {
    let name: String
    let bytes: [UInt8]

    var count: Int { bytes.count }

    func read(at offset: Int, count length: Int) throws(ArtifactError) -> [UInt8] {
        precondition(offset >= 0 && length >= 0 && offset + length <= bytes.count, "read outside the bytes")
        return Array(bytes[offset..<(offset + length)])
    }
}

/// A file opened for reading; `pread` serves each range, so nothing but the ranges asked for is read.
final class FileBytes: ArtifactBytes {
    let name: String
    let count: Int
    private let descriptor: Int32

    /// Opens `path`, which must be a regular file.
    init(path: String) throws(ArtifactError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ArtifactError("file", file: path, Self.reason(errno)) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = errno
            close(descriptor)
            throw ArtifactError("file", file: path, Self.reason(error))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw ArtifactError("file", file: path, "not a regular file")
        }
        self.name = path
        self.count = Int(status.st_size)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    func read(at offset: Int, count length: Int) throws(ArtifactError) -> [UInt8] {
        precondition(offset >= 0 && length >= 0 && offset + length <= count, "read outside the file")
        var done = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            while done < length {
                let got = pread(descriptor, buffer.baseAddress! + done, length - done, off_t(offset + done))
                if got > 0 {
                    done += got
                } else if got < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            initialized = done
        }
        guard done == length else {
            throw ArtifactError("file", file: name, offset: offset + done, "the file ended or could not be read")
        }
        return bytes
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
