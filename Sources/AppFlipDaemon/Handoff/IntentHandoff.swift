public import AppFlipCore
import AppFlipProtocol
public import Logging
public import NIOCore

/// One intent on its way to one app's activity: what `Activity.getIntent()`, `getCallingActivity()` and the
/// package manager tell the started activity, and the capability to return its result.
public final class IntentHandoff: Sendable {
    /// The intent, its extras whole.
    public let intent: Intent
    /// The activity the intent resolved to.
    public let activity: AndroidActivity
    /// The activity's class name, fully qualified.
    public let activityName: String
    /// The registered app that is the intent's package.
    public let appID: String
    /// Whether the caller waits for a result (`startActivityForResult`).
    public let forResult: Bool
    /// Who started it, as the daemon vouches: the caller's configured or registered Android identity, given
    /// only for a start for a result (`getCallingActivity()` is null otherwise). Never from the caller's
    /// own word.
    public let caller: AndroidCaller?
    /// The event loop the handoff runs on.
    public let eventLoop: any EventLoop
    /// The daemon's logger, for the handler's own messages; never log an extra whose name is secret.
    public let logger: Logger
    let hop: IntentHop

    init(
        intent: Intent,
        activity: AndroidActivity,
        appID: String,
        forResult: Bool,
        caller: AndroidCaller?,
        eventLoop: any EventLoop,
        logger: Logger,
        hop: IntentHop
    ) {
        self.intent = intent
        self.activity = activity
        self.activityName = activity.className(in: intent.package)
        self.appID = appID
        self.forResult = forResult
        self.caller = caller
        self.eventLoop = eventLoop
        self.logger = logger
        self.hop = hop
    }

    /// Returns the activity's result, from any thread: `setResult(resultCode, data)` and `finish()`, or an
    /// error (an `ErrorBody` with `handler_failed` or `timeout`; any other error is reported as
    /// `handler_failed`). Bounded by ``IntentLimits``: a result over them fails the start with
    /// `handler_failed`. The first answer counts; for a start not for a result, the result is dropped, as
    /// Android drops it.
    /// - Returns: whether this answer was the first.
    @discardableResult
    public func finish(_ result: Result<IntentResult, any Error>) -> Bool {
        hop.handlerFinished(result, by: self)
    }
}

extension ActivityHandler {
    /// Handlers that know no intents refuse them: `handler_failed`, naming the handler's kind.
    public func handle(_ intent: IntentHandoff) {
        intent.finish(.failure(ErrorBody(.handlerFailed, "\(intent.appID)'s \(kind) handler takes no intents")))
    }
}
