import AppFlipCore
import AppFlipProtocol
import HashTreeCollections
import NIOCore
import Synchronization

/// One `start`, from resolution to its record: resolves the intent as Android's activity manager does,
/// calls the app's handler with the caller the daemon vouches for, and turns the handler's result into
/// the reply, once. Runs on the requesting connection's event loop; a live app's answer hops back to it.
final class IntentHop: Sendable {
    let handoffID: UInt64
    let sender: HandoffHop.Sender
    let request: StartRequest
    /// The connection's own Android identity, if it registered one: the caller the started app learns of.
    let caller: AndroidCaller?
    let started: NIODeadline
    private let eventLoop: any EventLoop
    private let daemon: DaemonContext
    private let connection: NIOLoopBound<ConnectionHandler>
    private let id: RequestID
    private let answered = Atomic<Bool>(false)

    private init(
        request: StartRequest,
        caller: AndroidCaller?,
        sender: HandoffHop.Sender,
        connection: NIOLoopBound<ConnectionHandler>,
        id: RequestID,
        eventLoop: any EventLoop,
        daemon: DaemonContext
    ) {
        self.handoffID = daemon.recorder.nextHandoffID()
        self.request = request
        self.caller = caller
        self.sender = sender
        self.connection = connection
        self.id = id
        self.started = .now()
        self.eventLoop = eventLoop
        self.daemon = daemon
    }

    /// Answers a `start` request.
    static func start(
        _ request: StartRequest,
        caller: AndroidCaller?,
        from sender: HandoffHop.Sender,
        replyingTo connection: NIOLoopBound<ConnectionHandler>,
        id: RequestID,
        on eventLoop: any EventLoop,
        daemon: DaemonContext
    ) {
        guard daemon.inFlight.enter() else {
            connection.value.startFinished(id: id, .failure(ErrorBody(.shuttingDown, "appflipd is stopping and takes no new handoffs")))
            return
        }
        let hop = IntentHop(request: request, caller: caller, sender: sender, connection: connection, id: id, eventLoop: eventLoop, daemon: daemon)
        hop.dispatch()
    }

    private func dispatch() {
        let intent = request.intent
        guard let app = daemon.registry.routes.packages[intent.package] else {
            return finish(
                .failure(ErrorBody(.unknownPackage, "no app is the package \(intent.package) (ActivityNotFoundException)", field: "intent.package"))
            )
        }
        switch app.identity.resolve(action: intent.action, callerPackage: caller?.package) {
        case .failure(let refusal):
            let code: ErrorCode
            switch refusal {
            case .noActivity, .missingDefaultCategory: code = .activityNotFound
            case .notExported: code = .activityNotExported
            }
            finish(.failure(ErrorBody(code, "\(refusal)", field: "intent.action", app: app.appID)))
        case .success(let activity):
            app.handler.handle(
                IntentHandoff(
                    intent: intent,
                    activity: activity,
                    appID: app.appID,
                    forResult: request.forResult,
                    caller: request.forResult ? caller : nil,
                    eventLoop: eventLoop,
                    logger: daemon.logger,
                    hop: self
                )
            )
        }
    }

    /// Takes the handler's first answer, on whatever thread it comes, and concludes on the hop's loop.
    func handlerFinished(_ result: Result<IntentResult, any Error>, by handoff: IntentHandoff) -> Bool {
        guard answered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return false }
        let outcome: Result<StartResult, ErrorBody>
        switch result {
        case .success(let result):
            if let problem = IntentLimits.problem(with: result.extras) {
                let field = problem.field.map { "the extra \($0) " } ?? "the extras "
                outcome = .failure(
                    ErrorBody(.handlerFailed, "\(handoff.appID)'s result is refused: \(field)\(problem.message)", app: handoff.appID)
                )
            } else {
                let returned = request.forResult ? result : nil
                outcome = .success(
                    StartResult(
                        app: handoff.appID,
                        package: request.intent.package,
                        activity: handoff.activityName,
                        resultCode: returned?.resultCode,
                        extras: returned?.extras
                    )
                )
            }
        case .failure(let error):
            var body = error as? ErrorBody ?? ErrorBody(.handlerFailed, "\(handoff.appID)'s handler failed: \(error)")
            body.app = handoff.appID
            outcome = .failure(body)
        }
        if eventLoop.inEventLoop {
            finish(outcome, activity: handoff.activityName)
        } else {
            eventLoop.execute { self.finish(outcome, activity: handoff.activityName) }
        }
        return true
    }

    /// Records and replies; the `start` leaves the in-flight count after its reply is queued.
    private func finish(_ result: Result<StartResult, ErrorBody>, activity: String? = nil) {
        daemon.recorder.record(result, of: self, activity: activity)
        connection.value.startFinished(id: id, result)
        daemon.inFlight.leave()
    }
}
