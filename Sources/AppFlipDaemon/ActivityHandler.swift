import AppFlipCore
import AppFlipProtocol
import Logging
public import NIOCore

/// What an app does with a universal link: the daemon's extension point for handlers.
///
/// The daemon calls `handle(_:)` once per handoff on an event loop. The handler answers like
/// `application(_:continue:restorationHandler:)`: succeed with ``ActivityAnswer/continue`` or
/// ``ActivityAnswer/decline(_:)`` (with the reason the opener will read), or fail with an `ErrorBody` whose code is `handler_failed` or `timeout`; any other error is reported as
/// `handler_failed`. A handler enforces its own time limit. While handling, it may open URLs through
/// ``Handoff/open(_:options:)``; the originator's reply waits for their delivery and lists each one.
///
/// The future keeps the hot path on the event loop. A handler written with `async` code can bridge with
/// `handoff.eventLoop.makeFutureWithTask { … }`.
public protocol ActivityHandler: Sendable {
    /// How `apps` names this handler: `exec`, `live`, `builtin:accept`…
    var kind: String { get }

    func handle(_ handoff: Handoff) -> EventLoopFuture<ActivityAnswer>
}
