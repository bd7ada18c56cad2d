import AppFlipClient
import AppFlipDaemon
import Glibc
import Subprocess

/// How a daemon process ended, and what it wrote to stderr.
public struct DaemonExit: Sendable, Hashable {
    /// The exit status, when it exited.
    public var status: Int32?
    /// The signal that killed it, when one did.
    public var signal: Int32?
    /// Everything the daemon wrote to stderr, its log included.
    public var standardError: String
}
