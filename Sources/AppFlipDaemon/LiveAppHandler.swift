import AppFlipProtocol
import NIOCore

/// The handler of an app registered over a connection: it pushes `activity` messages down that connection
/// and completes each handoff when the app's `answer` arrives.
///
/// All state lives on the connection's event loop. When the connection closes, every handoff still
/// waiting fails at once with `handler_failed` rather than running into its timeout.
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
    private let state: NIOLoopBoundBox<State>

    /// Made on the connection's event loop, by the connection that registered.
    init(outbound: OutboundLines, timeout: TimeAmount) {
        eventLoop = outbound.channel.eventLoop
        self.outbound = NIOLoopBound(outbound, eventLoop: eventLoop)
        self.timeout = timeout
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

    /// Fails every waiting handoff. Runs on the connection's event loop when it closes.
    func connectionClosed() {
        state.value.isClosed = true
        state.value.timer?.cancel()
        state.value.timer = nil
        let pending = state.value.pending
        state.value.pending = [:]
        state.value.byDeadline.removeAll()
        for (_, handoff) in pending {
            handoff.promise.fail(
                ErrorBody(
                    .handlerFailed,
                    "the live app \(handoff.handoff.appID) disconnected before answering",
                    app: handoff.handoff.appID
                )
            )
        }
    }
}
