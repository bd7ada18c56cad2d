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
    private var handoff: Handoff?

    func handle(_ handoff: Handoff) {
        self.handoff = handoff
    }

    /// Answers the handoff; returns whether it was its first answer.
    @discardableResult
    func answer(_ continues: Bool) -> Bool {
        handoff?.answer(.success(ActivityAnswer(continues: continues))) ?? false
    }

    /// Fails the handoff; returns whether it was its first answer.
    @discardableResult
    func fail(_ error: any Error) -> Bool {
        handoff?.answer(.failure(error)) ?? false
    }
}
