import AppFlipCore
import AppFlipProtocol
import NIOCore
import Synchronization

/// One hop of a handoff, from dispatch to its record: the `open` itself is hop 0, a URL its app's handler
/// opens is hop 1, and so on. The hop checks the activity, asks the router for the app, calls the app's
/// handler, delivers the URLs the handler opens as hops of their own, turns the answer into the result,
/// records it once and reports it once.
///
/// Everything runs on the requesting connection's event loop: no task and no promise per handoff (a handler
/// that opens URLs makes one per URL), and no loop hop but the one into a live app's own connection and back.
final class HandoffHop: Sendable {
    /// Who sent the URL: the `open` caller, or the app whose handler opened it.
    struct Sender: Sendable {
        var peer: PeerInfo?
        var client: String?
    }

    /// Whom a hop reports its result to, exactly once.
    enum Requester: Sendable {
        /// The connection that sent the `open` request `id`, on its event loop. Held as it is, not in a
        /// closure: a closure's context was an allocation per handoff.
        case connection(NIOLoopBound<ConnectionHandler>, id: RequestID)
        /// The hop whose handler opened the URL (a URL opened by a live app may finish on the app's loop).
        case opener(@Sendable (Result<OpenResult, ErrorBody>) -> Void)
    }

    let handoffID: UInt64
    /// 0 for the `open` itself, 1 for a URL its handler opened, …
    let number: Int
    let sender: Sender
    /// The URL as sent, unredacted: only the app that claims it sees it.
    let url: String
    let started: NIODeadline
    private let eventLoop: any EventLoop
    private let daemon: DaemonContext
    private let requester: Requester
    private let openedURLs = Mutex(OpenedURLs())

    /// The URLs this hop's handler opened, in order.
    private struct OpenedURLs {
        var deliveries: [EventLoopFuture<OpenedURL>] = []
        /// The handler has answered: a URL opened now is refused.
        var isClosed = false
        /// The handler tried to open more than `maxOpenedURLs`; the hop fails.
        var overflowed = false
    }

    private init(
        handoffID: UInt64,
        number: Int,
        sender: Sender,
        url: String,
        eventLoop: any EventLoop,
        daemon: DaemonContext,
        requester: Requester
    ) {
        self.handoffID = handoffID
        self.number = number
        self.sender = sender
        self.url = url
        self.started = .now()
        self.eventLoop = eventLoop
        self.daemon = daemon
        self.requester = requester
    }

    /// Answers an `open` request: hop 0 of a new handoff.
    static func open(
        _ request: OpenRequest,
        from sender: Sender,
        replyingTo requester: Requester,
        on eventLoop: any EventLoop,
        daemon: DaemonContext
    ) {
        guard daemon.inFlight.enter() else {
            report(.failure(ErrorBody(.shuttingDown, "appflipd is stopping and takes no new handoffs")), to: requester)
            return
        }
        let hop = HandoffHop(
            handoffID: daemon.recorder.nextHandoffID(),
            number: 0,
            sender: sender,
            url: request.activity.webpageURL ?? "",
            eventLoop: eventLoop,
            daemon: daemon,
            requester: requester
        )
        hop.dispatch(request.activity, options: request.options)
    }

    /// Delivers a URL this hop's app opened as the next hop, and describes what happened to it.
    func open(_ request: OpenURLRequest, as appID: String) -> EventLoopFuture<OpenedURL> {
        let shown = Redaction.redact(url: request.url)
        let universalLinksOnly = request.options.universalLinksOnly
        let maxOpened = daemon.configuration.maxOpenedURLs
        let admission: Result<EventLoopPromise<OpenedURL>, ErrorBody> = openedURLs.withLock { opened in
            guard !opened.isClosed else { return .failure(ErrorBody(.handlerFailed, "the handler opened it after it had answered")) }
            guard opened.deliveries.count < maxOpened else {
                opened.overflowed = true
                return .failure(ErrorBody(.handlerFailed, "the handler opened more than \(maxOpened) URLs (maxOpenedURLs)"))
            }
            let promise = eventLoop.makePromise(of: OpenedURL.self)
            opened.deliveries.append(promise.futureResult)
            return .success(promise)
        }
        let promise: EventLoopPromise<OpenedURL>
        switch admission {
        case .success(let admitted): promise = admitted
        case .failure(let refusal):
            return eventLoop.makeSucceededFuture(OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .failed, error: refusal))
        }
        let next = HandoffHop(
            handoffID: handoffID,
            number: number + 1,
            sender: Sender(peer: nil, client: appID),
            url: request.url,
            eventLoop: eventLoop,
            daemon: daemon,
            requester: .opener { result in
                switch result {
                case .success(let handled) where handled.status == .handled:
                    promise.succeed(
                        OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .delivered, app: handled.app, rule: handled.rule)
                    )
                case .success(let concluded):
                    let status: OpenedURL.Status = concluded.status == .chooser ? .chooser : .browser
                    promise.succeed(OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: status))
                case .failure(let error) where error.code == .declined:
                    promise.succeed(
                        OpenedURL(
                            url: shown,
                            universalLinksOnly: universalLinksOnly,
                            status: .declined,
                            app: error.app,
                            rule: error.rule,
                            reason: error.reason
                        )
                    )
                case .failure(let error):
                    promise.succeed(
                        OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .failed, app: error.app, rule: error.rule, error: error)
                    )
                }
            }
        )
        next.dispatch(Activity(webpageURL: request.url), options: request.options)
        return promise.futureResult
    }

    private func dispatch(_ activity: Activity, options: OpenOptions) {
        let maxHops = daemon.configuration.maxHops
        guard number <= maxHops else {
            return finish(.failure(ErrorBody(.tooManyHops, "the URL would be handed on more than \(maxHops) times (maxHops)")))
        }
        guard activity.activityType == browsingWebActivityType else {
            return finish(
                .failure(
                    ErrorBody(
                        .unsupportedActivity,
                        "activityType \"\(activity.activityType)\" is not \(browsingWebActivityType)",
                        field: "activity.activityType"
                    )
                )
            )
        }
        guard let webpageURL = activity.webpageURL else {
            return finish(.failure(ErrorBody(.invalidURL, "the activity has no webpageURL", field: "activity.webpageURL")))
        }
        let url: RawURL
        do { url = try HandoffRouter.universalLink(webpageURL, field: "activity.webpageURL") } catch { return finish(.failure(error)) }
        switch daemon.router.route(url, webpageURL: webpageURL, options: options) {
        case .concluded(let result):
            finish(result)
        case .app(let route, let handler):
            handler.handle(Handoff(activity: activity, url: url, route: route, eventLoop: eventLoop, logger: daemon.logger, hop: self))
        }
    }

    /// Takes the handler's first answer (``Handoff/answer(_:)``), on whatever thread it comes, then concludes
    /// on the hop's event loop once every URL the handler opened is delivered.
    /// - Returns: whether it was the first answer.
    func handlerAnswered(_ result: Result<ActivityAnswer, any Error>, by handoff: Handoff) -> Bool {
        let first: (deliveries: [EventLoopFuture<OpenedURL>], overflowed: Bool)? = openedURLs.withLock { opened in
            guard !opened.isClosed else { return nil }
            opened.isClosed = true
            return (opened.deliveries, opened.overflowed)
        }
        guard let (deliveries, overflowed) = first else { return false }
        let answer: Result<ActivityAnswer, ErrorBody> = result.mapError { error in
            error as? ErrorBody ?? ErrorBody(.handlerFailed, "\(handoff.appID)'s handler failed: \(error)")
        }
        if deliveries.isEmpty, eventLoop.inEventLoop {
            conclude(answer, opened: [], overflowed: overflowed, handoff: handoff)
        } else {
            EventLoopFuture.whenAllSucceed(deliveries, on: eventLoop).whenSuccess { [self] opened in
                conclude(answer, opened: opened, overflowed: overflowed, handoff: handoff)
            }
        }
        return true
    }

    /// Turns the handler's answer, once every URL it opened is delivered, into the hop's result. The route's
    /// fields are read through the handoff, not copied out of it.
    private func conclude(_ answer: Result<ActivityAnswer, ErrorBody>, opened: [OpenedURL], overflowed: Bool, handoff: Handoff) {
        let appID = handoff.appID
        let rule = handoff.rule
        let maxOpened = daemon.configuration.maxOpenedURLs
        let answer =
            overflowed ? .failure(ErrorBody(.handlerFailed, "\(appID)'s handler opened more than \(maxOpened) URLs (maxOpenedURLs)")) : answer
        switch answer {
        case .success(let answer) where answer.continues:
            finish(.success(OpenResult(status: .handled, app: appID, domain: handoff.domain, rule: rule, opened: opened)))
        case .success(let answer):
            let because = answer.reason.map { ": \($0)" } ?? ""
            finish(
                .failure(
                    ErrorBody(
                        .declined,
                        "\(appID) declined the activity (continue: false)\(because)",
                        app: appID,
                        rule: rule,
                        opened: opened,
                        reason: answer.reason
                    )
                )
            )
        case .failure(var error):
            error.app = appID
            error.rule = rule
            error.opened = opened
            finish(.failure(error))
        }
    }

    /// Records and reports the result. A top-level handoff leaves the in-flight count only after its reply
    /// is queued, so that a draining daemon closes connections behind their last replies.
    private func finish(_ result: Result<OpenResult, ErrorBody>) {
        daemon.recorder.record(result, of: self)
        Self.report(result, to: requester)
        if number == 0 { daemon.inFlight.leave() }
    }

    private static func report(_ result: Result<OpenResult, ErrorBody>, to requester: Requester) {
        switch requester {
        case .connection(let connection, let id): connection.value.openFinished(id: id, result)
        case .opener(let opener): opener(result)
        }
    }
}
