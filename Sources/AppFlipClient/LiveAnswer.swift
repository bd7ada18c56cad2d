public import AppFlipProtocol
import NIOCore

/// What a live app answers to an `activity`: `application(_:continue:restorationHandler:)`'s return
/// value, and the URLs it opens while handling it.
public struct LiveAnswer: Sendable, Hashable {
    /// What `application(_:continue:restorationHandler:)` returns: `false` declines the activity, and the `open` caller gets `declined`.
    public var `continue`: Bool
    /// The URLs the app opens while handling the activity, in order, as `UIApplication.open(_:options:)` would; App Flip's result link is one.
    public var open: [OpenURLRequest]
    /// Why the app declines, when it does: the `open` caller reads it on the `declined` outcome.
    public var reason: String?

    /// Creates an answer; most apps that open nothing only pass `continue`.
    public init(continue: Bool, open: [OpenURLRequest] = [], reason: String? = nil) {
        self.continue = `continue`
        self.open = open
        self.reason = reason
    }
}
