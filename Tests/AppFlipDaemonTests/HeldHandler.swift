import AppFlipProtocol
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import AppFlipDaemon

/// A handler that answers its one handoff only when ``answer(_:)`` is called. Unchecked: an
/// `EmbeddedChannel` test runs everything on its one thread.
final class HeldHandler: ActivityHandler, @unchecked Sendable {
    let kind = "test:held"
    private var promise: EventLoopPromise<ActivityAnswer>?

    func handle(_ handoff: Handoff) -> EventLoopFuture<ActivityAnswer> {
        let promise = handoff.eventLoop.makePromise(of: ActivityAnswer.self)
        self.promise = promise
        return promise.futureResult
    }

    func answer(_ continues: Bool) {
        promise?.succeed(ActivityAnswer(continues: continues))
    }
}
