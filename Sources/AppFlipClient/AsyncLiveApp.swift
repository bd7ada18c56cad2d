public import AppFlipProtocol
public import NIOCore

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
