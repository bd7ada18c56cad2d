import AppFlipConfiguration
import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Glibc

/// The socket file's life: the start-up check, an atomic publish with the right mode, and removal.
///
/// The daemon binds a private temporary name in the same directory, sets mode 0660 on it, then `link(2)`s it
/// to the real path. `link` fails when the path exists, so a socket never appears with the umask's mode, and
/// two daemons starting at once cannot both take the path.
enum SocketFile {
    /// Refuses to start when another daemon answers on `path`; removes a stale socket file nobody answers on.
    static func prepare(_ path: String) throws(SocketPathError) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty { try makeDirectory(directory) }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw SocketPathError(description: "\(path) exists and is not a socket; refusing to replace it")
        }
        switch probe(path) {
        case .answered(let peer):
            let who = peer.map { " (pid \($0.pid), uid \($0.uid))" } ?? ""
            throw SocketPathError(description: "another appflipd is already listening on \(path)\(who); stop it or give another --socket")
        case .refused:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw SocketPathError(description: "cannot remove the stale socket \(path): \(String(cString: strerror(errno)))")
            }
        case .failed(let reason):
            throw SocketPathError(description: "cannot check whether a daemon answers on \(path): \(reason)")
        }
    }

    /// A name next to `path` for binding before publishing.
    static func temporaryPath(for path: String) throws(SocketPathError) -> String {
        let temporary = path + ".\(getpid()).tmp"
        guard temporary.utf8.count < SocketPath.maxLength else {
            throw SocketPathError(description: "\(path) is too long for a Unix socket path (the limit is \(SocketPath.maxLength - 16) bytes here)")
        }
        return temporary
    }

    /// Sets mode 0660 on the bound temporary socket and publishes it at `path`; returns its inode.
    static func publish(temporary: String, at path: String) throws(SocketPathError) -> UInt64 {
        defer { unlink(temporary) }
        guard chmod(temporary, 0o660) == 0 else {
            throw SocketPathError(description: "cannot set mode 0660 on \(temporary): \(String(cString: strerror(errno)))")
        }
        guard link(temporary, path) == 0 else {
            let reason = errno == EEXIST ? "another appflipd took it while this one started" : String(cString: strerror(errno))
            throw SocketPathError(description: "cannot create \(path): \(reason)")
        }
        var info = stat()
        lstat(path, &info)
        return UInt64(info.st_ino)
    }

    /// Removes `path` if it is still the socket this daemon published.
    static func remove(_ path: String, inode: UInt64) {
        var info = stat()
        if lstat(path, &info) == 0, UInt64(info.st_ino) == inode { unlink(path) }
    }

    private enum Probe {
        case answered(PeerInfo?)
        case refused
        case failed(String)
    }

    private static func probe(_ path: String) -> Probe {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(String(cString: strerror(errno))) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path.utf8.prefix(buffer.count - 1))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result == 0 {
            return .answered(peerCredentials(fileDescriptor: fd))
        }
        switch errno {
        case ECONNREFUSED, ENOENT: return .refused
        default: return .failed(String(cString: strerror(errno)))
        }
    }

    private static func makeDirectory(_ directory: String) throws(SocketPathError) {
        var info = stat()
        if stat(directory, &info) == 0 { return }
        let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
        if !parent.isEmpty { try makeDirectory(parent) }
        // Root's /run/appflipd must be reachable by the clients the socket's 0660 admits; a user's stays private.
        guard mkdir(directory, getuid() == 0 ? 0o755 : 0o700) == 0 || errno == EEXIST else {
            throw SocketPathError(description: "cannot create \(directory): \(String(cString: strerror(errno)))")
        }
    }
}

/// Why the daemon cannot take its socket path.
public struct SocketPathError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the path, in words, naming the path.
    public var description: String
}

/// An `errno` as a readable error.
struct POSIXErrorDescription: Error, CustomStringConvertible {
    var errno: Int32
    var description: String { String(cString: strerror(errno)) }
}
