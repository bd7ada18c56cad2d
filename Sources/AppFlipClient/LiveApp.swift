public import AppFlipProtocol
public import NIOCore

/// A live app's activity handler. It runs on the connection's event loop; return a future that is
/// already succeeded for the fastest path, or use ``AsyncLiveApp`` for `async` code.
public protocol LiveAppHandling: Sendable {
    func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer>
}

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

/// A live app written with `async` code.
public struct AsyncLiveApp: LiveAppHandling {
    private let answer: @Sendable (ActivityPush) async -> LiveAnswer

    /// Wraps a closure that may suspend (to ask a server, say) before it answers.
    public init(_ answer: @escaping @Sendable (ActivityPush) async -> LiveAnswer) {
        self.answer = answer
    }

    /// Runs the closure in a task and completes the future on `eventLoop` with its answer.
    public func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer> {
        eventLoop.makeFutureWithTask { await answer(activity) }
    }
}

/// A live app that answers synchronously, on the event loop.
public struct ImmediateLiveApp: LiveAppHandling {
    private let answer: @Sendable (ActivityPush) -> LiveAnswer

    /// Wraps a closure that answers synchronously, without a thread hop.
    public init(_ answer: @escaping @Sendable (ActivityPush) -> LiveAnswer) {
        self.answer = answer
    }

    /// Answers at once with an already succeeded future on `eventLoop`.
    public func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer> {
        eventLoop.makeSucceededFuture(answer(activity))
    }

    /// The answer itself, which the connection sends without making a future.
    func immediateAnswer(to activity: ActivityPush) -> LiveAnswer {
        answer(activity)
    }
}
