public import AppFlipCore
public import AppFlipProtocol
public import NIOCore

/// A live app's activity handler. It runs on the connection's event loop; return a future that is
/// already succeeded for the fastest path, or use ``AsyncLiveApp`` for `async` code.
public protocol LiveAppHandling: Sendable {
    func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer>

    /// Starts the activity an `intent` push names and returns its result: `setResult` then `finish`. The
    /// push's `caller` is who started it, as the daemon vouches. The default returns `RESULT_CANCELED`, as
    /// an Android activity that finishes without `setResult` does.
    func handle(_ intent: IntentPush, eventLoop: any EventLoop) -> EventLoopFuture<IntentResult>
}

extension LiveAppHandling {
    /// `RESULT_CANCELED` with no extras.
    public func handle(_ intent: IntentPush, eventLoop: any EventLoop) -> EventLoopFuture<IntentResult> {
        eventLoop.makeSucceededFuture(IntentResult(resultCode: IntentResult.canceled))
    }
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
    private let intents: (@Sendable (IntentPush) async -> IntentResult)?

    /// Wraps closures that may suspend (to ask a server, say) before they answer: `answer` for activities,
    /// `intents` for intents (without it, every intent gets `RESULT_CANCELED`).
    public init(
        _ answer: @escaping @Sendable (ActivityPush) async -> LiveAnswer = { _ in LiveAnswer(continue: false) },
        intents: (@Sendable (IntentPush) async -> IntentResult)? = nil
    ) {
        self.answer = answer
        self.intents = intents
    }

    /// Runs the closure in a task and completes the future on `eventLoop` with its answer.
    public func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer> {
        eventLoop.makeFutureWithTask { await answer(activity) }
    }

    /// Runs `intents` in a task and completes the future on `eventLoop` with its result.
    public func handle(_ intent: IntentPush, eventLoop: any EventLoop) -> EventLoopFuture<IntentResult> {
        guard let intents else { return eventLoop.makeSucceededFuture(IntentResult(resultCode: IntentResult.canceled)) }
        return eventLoop.makeFutureWithTask { await intents(intent) }
    }
}

/// A live app that answers synchronously, on the event loop.
public struct ImmediateLiveApp: LiveAppHandling {
    private let answer: @Sendable (ActivityPush) -> LiveAnswer
    private let intents: (@Sendable (IntentPush) -> IntentResult)?

    /// Wraps closures that answer synchronously, without a thread hop: `answer` for activities, `intents`
    /// for intents (without it, every intent gets `RESULT_CANCELED`).
    public init(
        _ answer: @escaping @Sendable (ActivityPush) -> LiveAnswer = { _ in LiveAnswer(continue: false) },
        intents: (@Sendable (IntentPush) -> IntentResult)? = nil
    ) {
        self.answer = answer
        self.intents = intents
    }

    /// Returns the result at once with an already succeeded future on `eventLoop`.
    public func handle(_ intent: IntentPush, eventLoop: any EventLoop) -> EventLoopFuture<IntentResult> {
        eventLoop.makeSucceededFuture(intents?(intent) ?? IntentResult(resultCode: IntentResult.canceled))
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
