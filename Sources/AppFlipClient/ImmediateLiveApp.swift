public import AppFlipProtocol
public import NIOCore

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
