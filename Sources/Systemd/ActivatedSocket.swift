import CSystemd
import Glibc

/// A listening socket that systemd opened for this service and passed on start (sd_listen_fds(3)).
public struct ActivatedSocket: Sendable, Hashable {
    /// The `.socket` unit's `FileDescriptorName=`, or the unit name when none is set.
    public let name: String
    /// The descriptor, already bound and listening, with `FD_CLOEXEC` set.
    public let fileDescriptor: Int32
}
