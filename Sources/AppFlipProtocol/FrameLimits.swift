/// Framing limits shared by the daemon and the client.
public enum FrameLimits {
    /// The longest line, newline excluded, that either side accepts by default: 64 KiB.
    public static let defaultMaxLineBytes = 65_536
    /// The longest line a client reads from the daemon. Replies can be long (`apps` on a big registry), so
    /// this only stops a runaway peer.
    package static let maxReplyLineBytes = 64 << 20
}
