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
        var timeout: Scheduled<Void>
    }

    private struct State {
        var pending: [UInt64: Pending] = [:]
        var nextHandoff: UInt64 = 1
        var isClosed = false
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
        let timeout = eventLoop.scheduleTask(in: self.timeout) { [self] in
            guard state.value.pending.removeValue(forKey: id) != nil else { return }
            let seconds = Double(self.timeout.nanoseconds) / 1e9
            promise.fail(ErrorBody(.timeout, "the live app \(handoff.appID) did not answer within \(seconds)s", app: handoff.appID))
        }
        state.value.pending[id] = Pending(promise: promise, handoff: handoff, timeout: timeout)
        let push = ActivityPush(handoff: id, app: handoff.appID, rule: handoff.rule, activity: handoff.activity)
        channel.writeAndFlush(ServerMessage.activity(push), promise: nil)
        return promise.futureResult
    }

    /// Completes a handoff with the app's answer. Runs on the connection's event loop.
    func answer(_ answer: AnswerRequest) -> Result<AnswerResult, ErrorBody> {
        guard let pending = state.value.pending.removeValue(forKey: answer.handoff) else {
            return .failure(ErrorBody(.unknownHandoff, "handoff \(answer.handoff) is not waiting for an answer (answered, timed out, or never sent)", field: "handoff"))
        }
        pending.timeout.cancel()
        for request in answer.open {
            pending.handoff.open(request.url, options: request.options)
        }
        pending.promise.succeed(answer.continue)
        return .success(AnswerResult(handoff: answer.handoff))
    }

    /// Fails every waiting handoff. Runs on the connection's event loop when it closes.
    func connectionClosed() {
        state.value.isClosed = true
        let pending = state.value.pending
        state.value.pending = [:]
        for (_, handoff) in pending {
            handoff.timeout.cancel()
            handoff.promise.fail(ErrorBody(
                .handlerFailed, "the live app \(handoff.handoff.appID) disconnected before answering", app: handoff.handoff.appID))
        }
    }
}
