/// Who is on the other end of a Unix socket connection, from `SO_PEERCRED`.
public struct PeerInfo: Sendable, Hashable, Codable {
    /// The peer's user id: what the claim policy and per-uid limits judge.
    public var uid: UInt32
    /// The peer's group id.
    public var gid: UInt32
    /// The peer's process id when it connected.
    public var pid: Int32

    /// Creates the record.
    public init(uid: UInt32, gid: UInt32, pid: Int32) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
    }
}
