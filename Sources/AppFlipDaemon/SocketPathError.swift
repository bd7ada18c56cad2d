import AppFlipProtocol

#if canImport(Glibc)
import Glibc
#endif

/// Why the daemon cannot take its socket path.
public struct SocketPathError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
