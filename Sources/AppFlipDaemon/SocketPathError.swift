import AppFlipProtocol
import Glibc

/// Why the daemon cannot take its socket path.
public struct SocketPathError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the path, in words, naming the path.
    public var description: String
}
