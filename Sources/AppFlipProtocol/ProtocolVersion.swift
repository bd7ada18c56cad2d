/// The version `hello` negotiates. A peer that asks for another version is refused with
/// `unsupported_version`, so that a future v2 can change anything without silent misreads.
public enum ProtocolVersion {
    /// Protocol v1, the only version there is.
    public static let current = 1
}

/// The activity type of a browsing-web `NSUserActivity`, the only kind a universal link is delivered as.
public let browsingWebActivityType = "NSUserActivityTypeBrowsingWeb"
