import FoundationEssentials
import Glibc

/// Temporary directories and files for test daemons, with plain POSIX calls.
public enum TestDirectory {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A new private directory under `$TMPDIR` (or /tmp), with a short name: socket paths have a length limit.
    public static func make() throws -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((base + "/afd-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// Writes `text` to `path`, truncating any file there, with permission bits `mode` whatever the umask
    /// (exec handler scripts need `0o755`).
    public static func write(_ text: String, to path: String, mode: UInt32) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw Failure(description: "cannot write \(path)")
        }
        fchmod(fd, mode)
    }

    /// Removes a directory tree made by ``make()``; symbolic links in it are removed, not followed.
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
