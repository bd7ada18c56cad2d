import AppFlipProtocol
import NIOCore

/// What a live app answers to an `activity`: `application(_:continue:restorationHandler:)`'s return
/// value, and the URLs it opens while handling it.
public struct LiveAnswer: Sendable, Hashable {
    public var `continue`: Bool
    public var open: [OpenURLRequest]

    public init(continue: Bool, open: [OpenURLRequest] = []) {
        self.continue = `continue`
        self.open = open
    }
}
