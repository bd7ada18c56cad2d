import Dispatch
import Glibc
import Logging
import Systemd

/// Linux's `struct ucred`, which Glibc's Swift module hides behind _GNU_SOURCE.
struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
