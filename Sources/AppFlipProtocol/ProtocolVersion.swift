/// The version `hello` negotiates. A peer that asks for another version is refused with
/// `unsupported_version`, so that a future v2 can change anything without silent misreads.
public enum ProtocolVersion {
    public static let current = 1
}

/// Framing limits shared by the daemon and the client.
public enum FrameLimits {
    /// The longest line, newline excluded, that either side accepts by default: 64 KiB.
    public static let defaultMaxLineBytes = 65_536
    /// The longest line a client reads from the daemon. Replies can be long (`apps` on a big registry), so
    /// this only stops a runaway peer.
    package static let maxReplyLineBytes = 64 << 20
}

/// The activity type of a browsing-web `NSUserActivity`, the only kind a universal link is delivered as.
public let browsingWebActivityType = "NSUserActivityTypeBrowsingWeb"
