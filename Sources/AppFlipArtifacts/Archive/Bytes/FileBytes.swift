import Glibc

/// A regular file opened read-only, each range read with `pread`, so that nothing but the ranges asked for is
/// read. It owns its descriptor, and shares it safely: `pread` keeps no file position.
public final class FileBytes: ByteSource {
    public let name: String
    public let count: Int
    private let descriptor: Int32

    /// Opens `path`; an ``ArtifactError`` when it cannot be opened or is not a regular file.
    public init(path: String) throws(ArtifactError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ArtifactError("file", file: path, String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ArtifactError("file", file: path, reason)
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

    public func read(at offset: Int, count length: Int) throws(ArtifactError) -> [UInt8] {
        precondition(offset >= 0 && length >= 0 && length <= count - offset, "read outside the file")
        var done = 0
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            while done < length {
                let got = pread(descriptor, buffer.baseAddress! + done, length - done, off_t(offset + done))
                if got > 0 {
                    done += got
                } else if got < 0, errno == EINTR {
                    continue
                } else {
                    failure = got < 0 ? errno : 0
                    break
                }
            }
            initialized = done
        }
        guard done == length else {
            throw ArtifactError(
                "file",
                file: name,
                offset: offset + done,
                failure == 0 ? "the file ended before its \(count) bytes" : String(cString: strerror(failure))
            )
        }
        return bytes
    }
}
