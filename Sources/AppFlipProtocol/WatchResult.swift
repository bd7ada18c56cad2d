/// The reply to `watch`; `event` pushes follow until the connection closes.
public struct WatchResult: Sendable, Hashable, Codable {
    /// Always true: the connection now receives `event` pushes.
    public var subscribed: Bool

    /// Creates the reply.
    public init(subscribed: Bool = true) {
        self.subscribed = subscribed
    }
}
