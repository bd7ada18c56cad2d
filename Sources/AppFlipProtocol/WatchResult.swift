/// The reply to `watch`; `event` pushes follow until the connection closes.
public struct WatchResult: Sendable, Hashable, Codable {
    public var subscribed: Bool

    public init(subscribed: Bool = true) {
        self.subscribed = subscribed
    }
}
