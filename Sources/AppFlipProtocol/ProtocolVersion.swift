/// The version `hello` negotiates. A peer that asks for another version is refused with
/// `unsupported_version`, so that a future v2 can change anything without silent misreads.
public enum ProtocolVersion {
    public static let current = 1
}

/// Framing limits shared by the daemon and the client.
public enum FrameLimits {
    /// The longest line, newline excluded, that either side accepts by default: 64 KiB.
    public static let defaultMaxLineBytes = 65_536
}

/// The activity type of a browsing-web `NSUserActivity`, the only kind a universal link is delivered as.
public let browsingWebActivityType = "NSUserActivityTypeBrowsingWeb"
