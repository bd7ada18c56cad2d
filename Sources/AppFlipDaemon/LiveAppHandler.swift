import AppFlipProtocol
import NIOCore

/// The handler of an app registered over a connection: it pushes `activity` messages down that connection
/// and completes each handoff when the app's `answer` arrives.
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
        var promise: EventLoopPromise<ActivityAnswer>
        var handoff: Handoff
        var deadline: NIODeadline
    }

    private struct State {
        var pending: [UInt64: Pending] = [:]
        /// Handoff ids in the order they were pushed, hence of their deadlines (every one gets the same
        /// timeout): one timer for the oldest replaces a scheduled task per handoff, which cost a sixth of
        /// this handler's time in the profile. Answered ids leave the front as soon as they reach it.
        var byDeadline = CircularBuffer<UInt64>()
        var timer: Scheduled<Void>?
        /// Armed while the connection is not writable.
        var stallTimer: Scheduled<Void>?
        /// Why the app was closed for falling behind, if it was.
        var fellBehind: String?
        var nextHandoff: UInt64 = 1
        var isClosed = false

        /// Drops answered handoffs from the front of `byDeadline`.
        mutating func trimAnswered() {
            while let first = byDeadline.first, pending[first] == nil { byDeadline.removeFirst() }
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

    func handle(_ handoff: Handoff) -> EventLoopFuture<ActivityAnswer> {
        // Made on the handoff's loop: the answer completes it there, with no hop back.
        let promise = handoff.eventLoop.makePromise(of: ActivityAnswer.self)
        if eventLoop.inEventLoop {
            push(handoff, promise: promise)
        } else {
            eventLoop.execute { self.push(handoff, promise: promise) }
        }
        return promise.futureResult
    }

    private func push(_ handoff: Handoff, promise: EventLoopPromise<ActivityAnswer>) {
        guard !state.value.isClosed else {
            promise.fail(ErrorBody(.handlerFailed, "the live app \(handoff.appID) disconnected", app: handoff.appID))
            return
        }
        // Fail fast rather than queue: what is not pushed costs nothing, so memory stays bounded.
        guard outbound.value.isWritable else {
            let message = "the live app \(handoff.appID) is not reading its pushes (its connection is not writable)"
            promise.fail(ErrorBody(.handlerFailed, message, app: handoff.appID))
            return
        }
        guard state.value.pending.count < maxPending else {
            let message = "the live app \(handoff.appID) already has \(maxPending) handoffs waiting for its answer (maxPendingPerLiveApp)"
            promise.fail(ErrorBody(.handlerFailed, message, app: handoff.appID))
            return
        }
        let id = state.value.nextHandoff
        state.value.nextHandoff += 1
        let deadline = NIODeadline.now() + timeout
        state.value.pending[id] = Pending(promise: promise, handoff: handoff, deadline: deadline)
        state.value.byDeadline.append(id)
        if state.value.timer == nil { armTimer(at: deadline) }
        outbound.value.sendAtEndOfTurn(.activity(ActivityPush(handoff: id, app: handoff.appID, rule: handoff.rule, activity: handoff.activity)))
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
        var expired: [Pending] = []
        while let first = state.value.byDeadline.first {
            if let pending = state.value.pending[first] {
                guard pending.deadline <= now else { break }
                state.value.pending[first] = nil
                expired.append(pending)
            }
            state.value.byDeadline.removeFirst()
        }
        if let first = state.value.byDeadline.first, let pending = state.value.pending[first] { armTimer(at: pending.deadline) }
        let seconds = Double(timeout.nanoseconds) / 1e9
        if !expired.isEmpty, !outbound.value.channel.isWritable {
            fallBehind("a handoff timed out while its pushes could not be written (not reading for \(seconds)s)")
        }
        for pending in expired {
            let appID = pending.handoff.appID
            pending.promise.fail(ErrorBody(.timeout, "the live app \(appID) did not answer within \(seconds)s", app: appID))
        }
    }

    /// Completes a handoff with the app's answer. Runs on the connection's event loop.
    func answer(_ answer: AnswerRequest) -> Result<AnswerResult, ErrorBody> {
        guard let pending = state.value.pending.removeValue(forKey: answer.handoff) else {
            return .failure(
                ErrorBody(
                    .unknownHandoff,
                    "handoff \(answer.handoff) is not waiting for an answer (answered, timed out, or never sent)",
                    field: "handoff"
                )
            )
        }
        state.value.trimAnswered()
        for request in answer.open {
            pending.handoff.open(request.url, options: request.options)
        }
        pending.promise.succeed(ActivityAnswer(continues: answer.continue, reason: answer.continue ? nil : answer.reason))
        return .success(AnswerResult(handoff: answer.handoff))
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
        let pending = state.value.pending
        state.value.pending = [:]
        state.value.byDeadline.removeAll()
        for (_, handoff) in pending {
            handoff.promise.fail(
                ErrorBody(
                    .handlerFailed,
                    "the live app \(handoff.handoff.appID) \(reason)",
                    app: handoff.handoff.appID
                )
            )
        }
        return state.value.fellBehind
    }
}
