import AppFlipCore
import AppFlipProtocol
import NIOCore

/// The handler of an app registered over a connection: it pushes `activity` and `intent` messages down
/// that connection and completes each handoff when the app's `answer` or `result` arrives.
///
/// All state lives on the connection's event loop. When the connection closes, every handoff still
/// waiting fails at once with `handler_failed` rather than running into its timeout.
///
/// Backpressure: a push is only queued while the connection is writable (less than the high water mark of
/// unwritten bytes) and fewer than `maxPending` handoffs wait for an answer. Otherwise the handoff fails at
/// once with `handler_failed`, so an app that does not read costs the daemon a bounded amount of memory and
/// the client learns it now, not at the timeout. An app that falls a whole timeout behind is closed, which
/// drops the pushes still queued for handoffs long answered: when a handoff times out while the connection
/// is not writable, or when the connection stays unwritable for the timeout.
final class LiveAppHandler: ActivityHandler {
    let kind = "live"

    private struct Pending {
        /// What waits: a universal link's activity, or an intent's activity.
        enum Waiting {
            case activity(Handoff)
            case intent(IntentHandoff)
        }

        var waiting: Waiting
        var deadline: NIODeadline

        var appID: String {
            switch waiting {
            case .activity(let handoff): handoff.appID
            case .intent(let intent): intent.appID
            }
        }

        /// Ends the handoff with an error, whichever kind it is.
        func fail(_ error: ErrorBody) {
            switch waiting {
            case .activity(let handoff): handoff.answer(.failure(error))
            case .intent(let intent): intent.finish(.failure(error))
            }
        }
    }

    private struct State {
        /// Pushed, not yet answered; one timer for the oldest replaces a scheduled task per handoff, which
        /// was a large part of this handler's time (`Benchmarks/instructions-per-handoff` shows it).
        var waiting = WaitingHandoffs<Pending>()
        var timer: Scheduled<Void>?
        /// Armed while the connection is not writable.
        var stallTimer: Scheduled<Void>?
        /// Why the app was closed for falling behind, if it was.
        var fellBehind: String?
        var isClosed = false

        /// Whether a handoff is pushed, and why not.
        enum Admission {
            /// Pushed under `id`; `armTimer` when no timer is armed for an older one.
            case pushed(id: UInt64, armTimer: Bool)
            case closed, notReading, full
        }

        /// Admits `pending` unless the app is gone, not reading, or has `maxPending` handoffs waiting: one
        /// access to the state per push.
        mutating func admit(_ pending: Pending, isWritable: Bool, maxPending: Int) -> Admission {
            guard !isClosed else { return .closed }
            // Fail fast rather than queue: what is not pushed costs nothing, so memory stays bounded.
            guard isWritable else { return .notReading }
            guard waiting.count < maxPending else { return .full }
            return .pushed(id: waiting.append(pending), armTimer: timer == nil)
        }
    }

    private let eventLoop: any EventLoop
    /// The app's connection's lines: the pushes of every client read in one turn leave in one write.
    private let outbound: NIOLoopBound<OutboundLines>
    private let timeout: TimeAmount
    /// Handoffs pushed and not yet answered, at most (`maxPendingPerLiveApp`).
    private let maxPending: Int
    private let state: NIOLoopBoundBox<State>

    /// Made on the connection's event loop, by the connection that registered.
    init(outbound: OutboundLines, timeout: TimeAmount, maxPending: Int) {
        eventLoop = outbound.channel.eventLoop
        self.outbound = NIOLoopBound(outbound, eventLoop: eventLoop)
        self.timeout = timeout
        self.maxPending = maxPending
        self.state = NIOLoopBoundBox(State(), eventLoop: eventLoop)
    }

    func handle(_ handoff: Handoff) {
        if eventLoop.inEventLoop {
            push(handoff)
        } else {
            eventLoop.execute { self.push(handoff) }
        }
    }

    func handle(_ intent: IntentHandoff) {
        if eventLoop.inEventLoop {
            push(intent)
        } else {
            eventLoop.execute { self.push(intent) }
        }
    }

    private func push(_ handoff: Handoff) {
        let pending = Pending(waiting: .activity(handoff), deadline: NIODeadline.now() + timeout)
        guard let id = admit(pending) else { return }
        outbound.value.sendAtEndOfTurn(.activity(ActivityPush(handoff: id, app: handoff.appID, rule: handoff.rule, activity: handoff.activity)))
    }

    private func push(_ intent: IntentHandoff) {
        guard let id = admit(Pending(waiting: .intent(intent), deadline: NIODeadline.now() + timeout)) else { return }
        let push = IntentPush(
            handoff: id,
            app: intent.appID,
            activity: intent.activityName,
            intent: intent.intent,
            forResult: intent.forResult,
            caller: intent.caller
        )
        outbound.value.sendAtEndOfTurn(.intent(push))
    }

    /// The id `pending` waits under, or nil when it was refused (and failed).
    private func admit(_ pending: Pending) -> UInt64? {
        let appID = pending.appID
        let refusal: String
        switch state.value.admit(pending, isWritable: outbound.value.isWritable, maxPending: maxPending) {
        case .pushed(let id, let armTimer):
            if armTimer { self.armTimer(at: pending.deadline) }
            return id
        case .closed: refusal = "the live app \(appID) disconnected"
        case .notReading: refusal = "the live app \(appID) is not reading its pushes (its connection is not writable)"
        case .full: refusal = "the live app \(appID) already has \(maxPending) handoffs waiting for its answer (maxPendingPerLiveApp)"
        }
        pending.fail(ErrorBody(.handlerFailed, refusal, app: appID))
        return nil
    }

    private func armTimer(at deadline: NIODeadline) {
        state.value.timer = eventLoop.scheduleTask(deadline: deadline) { [self] in
            state.value.timer = nil
            expire()
        }
    }

    /// Fails every handoff whose deadline has passed, and arms the timer for the oldest one left.
    private func expire() {
        let now = NIODeadline.now()
        let expired = state.value.waiting.removeOldest { $0.deadline <= now }
        if let oldest = state.value.waiting.oldest { armTimer(at: oldest.deadline) }
        let seconds = Double(timeout.nanoseconds) / 1e9
        if !expired.isEmpty, !outbound.value.channel.isWritable {
            fallBehind("a handoff timed out while its pushes could not be written (not reading for \(seconds)s)")
        }
        for pending in expired {
            let appID = pending.appID
            pending.fail(ErrorBody(.timeout, "the live app \(appID) did not answer within \(seconds)s", app: appID))
        }
    }

    /// Completes a handoff with the app's answer. Runs on the connection's event loop.
    func answer(_ answer: AnswerRequest) -> Result<AnswerResult, ErrorBody> {
        let pending: Pending
        switch take(answer.handoff, answering: .activity) {
        case .success(let taken): pending = taken
        case .failure(let error): return .failure(error)
        }
        guard case .activity(let handoff) = pending.waiting else { preconditionFailure("take(_:answering:) checked the kind") }
        for request in answer.open {
            handoff.open(request.url, options: request.options)
        }
        handoff.answer(.success(ActivityAnswer(continues: answer.continue, reason: answer.continue ? nil : answer.reason)))
        return .success(AnswerResult(handoff: answer.handoff))
    }

    /// Completes an intent with the app's `result`. Runs on the connection's event loop.
    func result(_ result: ResultRequest) -> Result<AnswerResult, ErrorBody> {
        let pending: Pending
        switch take(result.handoff, answering: .intent) {
        case .success(let taken): pending = taken
        case .failure(let error): return .failure(error)
        }
        guard case .intent(let intent) = pending.waiting else { preconditionFailure("take(_:answering:) checked the kind") }
        intent.finish(.success(result.result))
        return .success(AnswerResult(handoff: result.handoff))
    }

    /// What a live app's request answers: `answer` an activity, `result` an intent.
    private enum Answering {
        case activity, intent
    }

    /// Takes out the handoff `id` if it waits and is of the kind the request answers; one of the other kind
    /// keeps waiting.
    private func take(_ id: UInt64, answering: Answering) -> Result<Pending, ErrorBody> {
        let unknown = ErrorBody(.unknownHandoff, "handoff \(id) is not waiting for an answer (answered, timed out, or never sent)", field: "handoff")
        guard let waiting = state.value.waiting.waiting(id: id) else { return .failure(unknown) }
        switch (waiting.waiting, answering) {
        case (.activity, .activity), (.intent, .intent):
            return state.value.waiting.remove(id: id).map { .success($0) } ?? .failure(unknown)
        case (.activity, .intent):
            return .failure(ErrorBody(.invalidRequest, "handoff \(id) is an activity: answer it with answer, not result", field: "handoff"))
        case (.intent, .activity):
            return .failure(ErrorBody(.invalidRequest, "handoff \(id) is an intent: answer it with result, not answer", field: "handoff"))
        }
    }

    /// Arms or cancels the stall timer as the connection goes over or back under its high water mark. Runs
    /// on the connection's event loop.
    func writabilityChanged() {
        if outbound.value.channel.isWritable {
            state.value.stallTimer?.cancel()
            state.value.stallTimer = nil
        } else if state.value.stallTimer == nil, !state.value.isClosed {
            state.value.stallTimer = eventLoop.scheduleTask(in: timeout) { [self] in
                state.value.stallTimer = nil
                guard !outbound.value.channel.isWritable else { return }
                fallBehind("its connection was not writable for \(Double(timeout.nanoseconds) / 1e9)s")
            }
        }
    }

    /// Closes the app's connection; ``connectionClosed()`` then fails what waits.
    private func fallBehind(_ reason: String) {
        guard !state.value.isClosed, state.value.fellBehind == nil else { return }
        state.value.fellBehind = reason
        outbound.value.channel.close(promise: nil)
    }

    /// Fails every waiting handoff with `handler_failed`. Runs on the connection's event loop when it
    /// closes.
    /// - Returns: why the app was closed for falling behind, if it was.
    @discardableResult
    func connectionClosed() -> String? {
        let reason = state.value.fellBehind.map { "was closed: \($0)" } ?? "disconnected before answering"
        state.value.isClosed = true
        state.value.timer?.cancel()
        state.value.timer = nil
        state.value.stallTimer?.cancel()
        state.value.stallTimer = nil
        for waiting in state.value.waiting.removeAll() {
            waiting.fail(ErrorBody(.handlerFailed, "the live app \(waiting.appID) \(reason)", app: waiting.appID))
        }
        return state.value.fellBehind
    }
}
