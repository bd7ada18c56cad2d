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
        var promise: EventLoopPromise<Bool>
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
        /// A flush is queued behind this event loop turn's I/O: the pushes of every client read in the
        /// same turn leave in one write.
        var flushQueued = false

        /// Drops answered handoffs from the front of `byDeadline`.
        mutating func trimAnswered() {
            while let first = byDeadline.first, pending[first] == nil { byDeadline.removeFirst() }
        }
    }

    private let channel: any Channel
    private let timeout: TimeAmount
    private let state: NIOLoopBoundBox<State>

    init(channel: any Channel, timeout: TimeAmount) {
        self.channel = channel
        self.timeout = timeout
        self.state = NIOLoopBoundBox(State(), eventLoop: channel.eventLoop)
    }

    func handle(_ handoff: Handoff) -> EventLoopFuture<Bool> {
        let eventLoop = channel.eventLoop
        if eventLoop.inEventLoop { return push(handoff) }
        return eventLoop.flatSubmit { self.push(handoff) }
    }

    private func push(_ handoff: Handoff) -> EventLoopFuture<Bool> {
        let eventLoop = channel.eventLoop
        guard !state.value.isClosed else {
            return eventLoop.makeFailedFuture(ErrorBody(.handlerFailed, "the live app \(handoff.appID) disconnected", app: handoff.appID))
        }
        let id = state.value.nextHandoff
        state.value.nextHandoff += 1
        let promise = eventLoop.makePromise(of: Bool.self)
        let deadline = NIODeadline.now() + timeout
        state.value.pending[id] = Pending(promise: promise, handoff: handoff, deadline: deadline)
        state.value.byDeadline.append(id)
        if state.value.timer == nil { armTimer(at: deadline) }
        let push = ActivityPush(handoff: id, app: handoff.appID, rule: handoff.rule, activity: handoff.activity)
        channel.write(ServerMessage.activity(push), promise: nil)
        if !state.value.flushQueued {
            state.value.flushQueued = true
            eventLoop.execute { [self] in
                state.value.flushQueued = false
                channel.flush()
            }
        }
        return promise.futureResult
    }

    private func armTimer(at deadline: NIODeadline) {
        state.value.timer = channel.eventLoop.scheduleTask(deadline: deadline) { [self] in
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
            return .failure(ErrorBody(.unknownHandoff, "handoff \(answer.handoff) is not waiting for an answer (answered, timed out, or never sent)", field: "handoff"))
        }
        state.value.trimAnswered()
        for request in answer.open {
            pending.handoff.open(request.url, options: request.options)
        }
        pending.promise.succeed(answer.continue)
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
            handoff.promise.fail(ErrorBody(
                .handlerFailed, "the live app \(handoff.handoff.appID) disconnected before answering", app: handoff.handoff.appID))
        }
    }
}
