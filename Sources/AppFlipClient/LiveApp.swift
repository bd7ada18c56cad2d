public import AppFlipProtocol
public import NIOCore

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

/// A live app's activity handler. It runs on the connection's event loop; return a future that is
/// already succeeded for the fastest path, or use ``AsyncLiveApp`` for `async` code.
public protocol LiveAppHandling: Sendable {
    func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer>
}

/// A live app that answers synchronously, on the event loop.
public struct ImmediateLiveApp: LiveAppHandling {
    private let answer: @Sendable (ActivityPush) -> LiveAnswer

    public init(_ answer: @escaping @Sendable (ActivityPush) -> LiveAnswer) {
        self.answer = answer
    }

    public func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer> {
        eventLoop.makeSucceededFuture(answer(activity))
    }

    /// The answer itself, which the connection sends without making a future.
    func immediateAnswer(to activity: ActivityPush) -> LiveAnswer {
        answer(activity)
    }
}

/// A live app written with `async` code.
public struct AsyncLiveApp: LiveAppHandling {
    private let answer: @Sendable (ActivityPush) async -> LiveAnswer

    public init(_ answer: @escaping @Sendable (ActivityPush) async -> LiveAnswer) {
        self.answer = answer
    }

    public func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer> {
        eventLoop.makeFutureWithTask { await answer(activity) }
    }
}
