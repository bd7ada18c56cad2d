import AppFlipProtocol
import NIOCore

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
