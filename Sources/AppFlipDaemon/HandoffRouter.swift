import AppFlipCore
import AppFlipProtocol
import Logging
import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Routes activities to apps and URLs opened by handlers on to the apps that claim them.
///
/// Everything here is future-based and runs on the requesting connection's event loop: no task or thread
/// hop is added per handoff, except the one into a live app's own connection.
final class HandoffRouter: Sendable {
    /// Who sent a URL: the `open` caller, or the app whose handler opened it.
    struct Sender: Sendable {
        var peer: PeerInfo?
        var client: String?
    }

    private let registry: AppRegistry
    private let events: EventHub
    private let inFlight: InFlightHandoffs
    private let maxHops: Int
    private let maxOpenedURLs: Int
    private let logger: Logger
    private let handoffIDs = HandoffIDs()

    init(registry: AppRegistry, events: EventHub, inFlight: InFlightHandoffs, configuration: DaemonConfiguration, logger: Logger) {
        self.registry = registry
        self.events = events
        self.inFlight = inFlight
        self.maxHops = configuration.maxHops
        self.maxOpenedURLs = configuration.maxOpenedURLs
        self.logger = logger
    }

    /// Answers an `open` request.
    func open(_ request: OpenRequest, from sender: Sender, on eventLoop: any EventLoop) -> EventLoopFuture<Result<OpenResult, ErrorBody>> {
        guard inFlight.enter() else {
            return eventLoop.makeSucceededFuture(.failure(ErrorBody(.shuttingDown, "appflipd is stopping and takes no new handoffs")))
        }
        let inFlight = self.inFlight
        let outcome = dispatch(request.activity, options: request.options, handoffID: handoffIDs.next(), hop: 0, from: sender, on: eventLoop)
        // A callback, not `always`: it runs before the caller's, without a future of its own.
        outcome.whenComplete { _ in inFlight.leave() }
        return outcome
    }

    /// Answers an `explain` request.
    func explain(_ request: ExplainRequest) -> Result<ExplainResult, ErrorBody> {
        let url: RawURL
        switch Self.universalLink(request.url, field: "url") {
        case .success(let parsed): url = parsed
        case .failure(let error): return .failure(error)
        }
        let table = registry.routes.table
        let candidates = table.explain(url).map { candidate in
            CandidateDecision(
                app: candidate.appID, domain: "\(candidate.domain)", outcome: candidate.decision.outcome.rawValue,
                rule: candidate.decision.pointer ?? "", details: candidate.decision.detailsIndex, component: candidate.decision.componentIndex)
        }
        switch table.route(url) {
        case .matched(let candidate):
            return .success(ExplainResult(url: request.url, decision: .match, app: candidate.appID, rule: candidate.decision.pointer, candidates: candidates))
        case .excluded(let candidate):
            return .success(ExplainResult(url: request.url, decision: .exclude, app: candidate.appID, rule: candidate.decision.pointer, candidates: candidates))
        case .noApp:
            return .success(ExplainResult(url: request.url, decision: .noApp, app: nil, rule: nil, candidates: candidates))
        }
    }

    private func dispatch(
        _ activity: Activity, options: OpenOptions, handoffID: String, hop: Int, from sender: Sender, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Result<OpenResult, ErrorBody>> {
        let started = NIODeadline.now()
        let urlString = activity.webpageURL ?? ""
        let finish: @Sendable (Result<OpenResult, ErrorBody>) -> Result<OpenResult, ErrorBody> = { [self] result in
            record(result, url: urlString, handoffID: handoffID, hop: hop, from: sender, started: started)
            return result
        }

        guard hop <= maxHops else {
            return eventLoop.makeSucceededFuture(finish(.failure(ErrorBody(.tooManyHops, "the URL would be handed on more than \(maxHops) times (maxHops)"))))
        }
        guard activity.activityType == browsingWebActivityType else {
            return eventLoop.makeSucceededFuture(finish(.failure(ErrorBody(
                .unsupportedActivity, "activityType \"\(activity.activityType)\" is not \(browsingWebActivityType)", field: "activity.activityType"))))
        }
        guard let webpageURL = activity.webpageURL else {
            return eventLoop.makeSucceededFuture(finish(.failure(ErrorBody(.invalidURL, "the activity has no webpageURL", field: "activity.webpageURL"))))
        }
        let url: RawURL
        switch Self.universalLink(webpageURL, field: "activity.webpageURL") {
        case .success(let parsed): url = parsed
        case .failure(let error): return eventLoop.makeSucceededFuture(finish(.failure(error)))
        }

        let routes = registry.routes
        let candidate: Candidate
        switch routes.table.route(url) {
        case .noApp:
            if options.universalLinksOnly {
                return eventLoop.makeSucceededFuture(finish(.failure(ErrorBody(
                    .noApp, "no app claims \(Redaction.redact(url: webpageURL)) and universalLinksOnly is set"))))
            }
            return eventLoop.makeSucceededFuture(finish(.success(OpenResult(status: .browser))))
        case .excluded(let excluded):
            return eventLoop.makeSucceededFuture(finish(.failure(ErrorBody(
                .excluded, "\(excluded.appID)'s AASA excludes the URL at \(excluded.decision.pointer ?? "?"): \(excluded.decision.rule ?? "")",
                app: excluded.appID, rule: excluded.decision.pointer))))
        case .matched(let matched):
            candidate = matched
        }
        guard let handler = routes.handlers[candidate.appID] else {
            return eventLoop.makeSucceededFuture(finish(.failure(ErrorBody(.noApp, "\(candidate.appID) has no handler"))))
        }

        let appID = candidate.appID
        let rule = candidate.decision.pointer ?? ""
        let domain = "\(candidate.domain)"
        let opener = URLOpener(eventLoop: eventLoop, maxOpened: maxOpenedURLs) { [self] request in
            deliver(request, handoffID: handoffID, hop: hop + 1, from: Sender(peer: nil, client: appID), on: eventLoop)
        }
        let handoff = Handoff(activity: activity, appID: appID, rule: rule, eventLoop: eventLoop, logger: logger, opener: opener)
        // One promise and one callback per handoff: this is the hot path.
        let promise = eventLoop.makePromise(of: Result<OpenResult, ErrorBody>.self)
        handler.handle(handoff).hop(to: eventLoop).whenComplete { result in
            let outcome: Result<Bool, ErrorBody> = result.mapError { error in
                error as? ErrorBody ?? ErrorBody(.handlerFailed, "\(appID)'s handler failed: \(error)")
            }
            let maxOpenedURLs = self.maxOpenedURLs
            opener.finish { opened, overflowed in
                let outcome = overflowed
                    ? .failure(ErrorBody(.handlerFailed, "\(appID)'s handler opened more than \(maxOpenedURLs) URLs (maxOpenedURLs)"))
                    : outcome
                switch outcome {
                case .success(true):
                    promise.succeed(finish(.success(OpenResult(status: .handled, app: appID, domain: domain, rule: rule, opened: opened))))
                case .success(false):
                    promise.succeed(finish(.failure(ErrorBody(.declined, "\(appID) declined the activity (continue: false)", app: appID, rule: rule, opened: opened))))
                case .failure(var error):
                    error.app = appID
                    error.rule = rule
                    error.opened = opened
                    promise.succeed(finish(.failure(error)))
                }
            }
        }
        return promise.futureResult
    }

    /// Delivers a URL a handler opened, and describes what happened to it.
    private func deliver(_ request: OpenURLRequest, handoffID: String, hop: Int, from sender: Sender, on eventLoop: any EventLoop) -> EventLoopFuture<OpenedURL> {
        let shown = Redaction.redact(url: request.url)
        let universalLinksOnly = request.options.universalLinksOnly
        return dispatch(Activity(webpageURL: request.url), options: request.options, handoffID: handoffID, hop: hop, from: sender, on: eventLoop).map { result in
            switch result {
            case .success(let handled) where handled.status == .handled:
                OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .delivered, app: handled.app, rule: handled.rule)
            case .success:
                OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .browser)
            case .failure(let error) where error.code == .declined:
                OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .declined, app: error.app, rule: error.rule)
            case .failure(let error):
                OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .failed, app: error.app, rule: error.rule, error: error)
            }
        }
    }

    /// Logs a finished handoff (one info line per hop, all hops of one `open` under one handoff id) and
    /// streams it to `watch` subscribers. The URL is redacted here; the log handler scrubs again.
    private func record(
        _ result: Result<OpenResult, ErrorBody>, url: String, handoffID: String, hop: Int, from sender: Sender, started: NIODeadline
    ) {
        let outcome: String
        let app: String?
        let rule: String?
        switch result {
        case .success(let handled):
            outcome = hop == 0 ? handled.status.rawValue : (handled.status == .handled ? "delivered" : handled.status.rawValue)
            app = handled.app
            rule = handled.rule
        case .failure(let error):
            outcome = error.code.rawValue
            app = error.app
            rule = error.rule
        }
        let logs = logger.logLevel <= .info
        let watched = events.hasSubscribers
        guard logs || watched else { return }
        let latency = (NIODeadline.now() - started).nanoseconds / 1000
        let shown = Redaction.redact(url: url)
        if logs {
            var metadata: Logger.Metadata = [
                "handoff_id": "\(handoffID)", "hop": "\(hop)", "url": "\(shown)", "app": "\(app ?? "-")",
                "rule": "\(rule ?? "-")", "outcome": "\(outcome)", "latency_us": "\(latency)",
            ]
            if let peer = sender.peer {
                metadata["peer_uid"] = "\(peer.uid)"
                metadata["peer_pid"] = "\(peer.pid)"
            }
            if let client = sender.client { metadata["client"] = "\(client)" }
            logger.info("handoff \(outcome)", metadata: metadata)
        }
        if watched {
            events.publish(HandoffEvent(
                time: Self.now(), from: sender.peer, client: sender.client, hop: hop, url: shown, app: app, rule: rule,
                outcome: outcome, latencyMicros: latency))
        }
    }

    /// Parses a URL that is to be routed as a universal link: valid, absolute, https.
    static func universalLink(_ string: String, field: String) -> Result<RawURL, ErrorBody> {
        let url: RawURL
        do {
            url = try RawURL(string)
        } catch {
            return .failure(ErrorBody(.invalidURL, "\(field) is not a usable URL: \(error)", field: field))
        }
        guard url.scheme.lowercased() == "https" else {
            return .failure(ErrorBody(.notHTTPS, "universal links are https; the scheme is \"\(url.scheme)\"", field: field))
        }
        return .success(url)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Names each top-level handoff for the log: this process's start time in hex, then a counter, so that ids
/// stay unique across restarts (`journalctl APPFLIP_HANDOFF_ID=…` finds one handoff and all its hops).
final class HandoffIDs: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    init() {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        prefix = String(UInt64(time.tv_sec) &* 1_000_000 &+ UInt64(time.tv_nsec / 1000), radix: 16) + "-"
    }

    func next() -> String {
        prefix + String(counter.add(1, ordering: .relaxed).newValue)
    }
}
