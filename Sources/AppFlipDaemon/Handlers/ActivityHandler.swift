import AppFlipCore
import AppFlipProtocol
import Logging

/// What an app does with a universal link: the daemon's extension point for handlers.
///
/// The daemon calls `handle(_:)` once per handoff, on the handoff's event loop, and the handler answers
/// through ``Handoff/answer(_:)`` the way `application(_:continue:restorationHandler:)` does: with
/// ``ActivityAnswer/continue`` or ``ActivityAnswer/decline(_:)`` (with the reason the opener will read), or
/// with an `ErrorBody` whose code is `handler_failed` or `timeout`; any other error is reported as
/// `handler_failed`. The first answer counts. A handler enforces its own time limit. Until it answers, it
/// may open URLs through ``Handoff/open(_:options:)``; the originator's reply waits for their delivery and
/// lists each one.
///
/// The answer goes through the handoff rather than a returned future: the hot path, a live app's handoff,
/// then makes no promise, future and callback per handoff (`Benchmarks/instructions-per-handoff` shows it).
/// A handler holding a future answers with `future.whenComplete { handoff.answer($0) }`; one written with
/// `async` code answers from its `Task`.
public protocol ActivityHandler: Sendable {
    /// How `apps` names this handler: `exec`, `live`, `builtin:accept`…
    var kind: String { get }

    /// Starts handling `handoff`; answer it through ``Handoff/answer(_:)``.
    func handle(_ handoff: Handoff)

    /// Starts the activity an intent resolved to (`start`); answer through ``IntentHandoff/finish(_:)``.
    /// Handlers of apps with an Android identity implement it; the default refuses with `handler_failed`.
    func handle(_ intent: IntentHandoff)
}

/// A handler's answer to a handoff: `application(_:continue:restorationHandler:)`'s return value, and, when
/// it declines, why, so that the opener learns which rule its link broke instead of reading the daemon's log.
public struct ActivityAnswer: Sendable, Hashable {
    /// `true` continues the activity (`handled`); `false` declines it (`declined`).
    public var continues: Bool
    /// Why the app declined, in the app's words; carried on the `declined` outcome. Never a code or a secret.
    public var reason: String?

    /// The app continued the activity.
    public static let `continue` = ActivityAnswer(continues: true, reason: nil)

    /// The app declined the activity, saying why when it can.
    public static func decline(_ reason: String? = nil) -> ActivityAnswer {
        ActivityAnswer(continues: false, reason: reason)
    }

    /// Creates an answer.
    public init(continues: Bool, reason: String? = nil) {
        self.continues = continues
        self.reason = reason
    }
}
