import AppFlipProtocol
import Glibc
import NIOCore

/// The layout of Linux's `struct ucred`, which `SO_PEERCRED` fills in.
private struct UnixCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

extension Channel {
    /// The uid, gid and pid of the process at the other end of a Unix socket, as the kernel recorded them
    /// when it connected; `nil` when the channel is not a Unix socket.
    func peerCredentials() -> EventLoopFuture<PeerInfo?> {
        guard let provider = self as? any SocketOptionProvider else { return eventLoop.makeSucceededFuture(nil) }
        let future: EventLoopFuture<UnixCredentials> = provider.unsafeGetSocketOption(
            level: .socket,
            name: NIOBSDSocket.Option(rawValue: SO_PEERCRED)
        )
        return future.map { PeerInfo(uid: $0.uid, gid: $0.gid, pid: $0.pid) }.recover { _ in nil }
    }
}

/// `SO_PEERCRED` on a plain file descriptor, for the start-up probe of an existing socket.
func peerCredentials(fileDescriptor: Int32) -> PeerInfo? {
    var credentials = UnixCredentials()
    var length = socklen_t(MemoryLayout<UnixCredentials>.size)
    guard getsockopt(fileDescriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
    return PeerInfo(uid: credentials.uid, gid: credentials.gid, pid: credentials.pid)
}
