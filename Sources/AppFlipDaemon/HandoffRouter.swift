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

    /// What one handoff hop reports when it finishes: exactly once, on the handoff's event loop for an
    /// `open` (a URL opened by a live app may finish on the app's loop).
    typealias Completion = @Sendable (Result<OpenResult, ErrorBody>) -> Void

    /// Answers an `open` request.
    func open(_ request: OpenRequest, from sender: Sender, on eventLoop: any EventLoop, reply: @escaping Completion) {
        guard inFlight.enter() else {
            reply(.failure(ErrorBody(.shuttingDown, "appflipd is stopping and takes no new handoffs")))
            return
        }
        let hop = Hop(handoffID: handoffIDs.next(), number: 0, sender: sender, url: request.activity.webpageURL ?? "", started: .now())
        dispatch(request.activity, options: request.options, hop: hop, on: eventLoop, completion: reply)
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

    /// One hop of a handoff, as the log and `watch` report it.
    struct Hop: Sendable {
        var handoffID: UInt64
        /// 0 for the `open` itself, 1 for a URL its handler opened, …
        var number: Int
        var sender: Sender
        var url: String
        var started: NIODeadline
    }

    private func dispatch(_ activity: Activity, options: OpenOptions, hop: Hop, on eventLoop: any EventLoop, completion: @escaping Completion) {
        guard hop.number <= maxHops else {
            return finish(.failure(ErrorBody(.tooManyHops, "the URL would be handed on more than \(maxHops) times (maxHops)")), hop, completion)
        }
        guard activity.activityType == browsingWebActivityType else {
            return finish(.failure(ErrorBody(
                .unsupportedActivity, "activityType \"\(activity.activityType)\" is not \(browsingWebActivityType)", field: "activity.activityType")), hop, completion)
        }
        guard let webpageURL = activity.webpageURL else {
            return finish(.failure(ErrorBody(.invalidURL, "the activity has no webpageURL", field: "activity.webpageURL")), hop, completion)
        }
        let url: RawURL
        switch Self.universalLink(webpageURL, field: "activity.webpageURL") {
        case .success(let parsed): url = parsed
        case .failure(let error): return finish(.failure(error), hop, completion)
        }

        let routes = registry.routes
        let candidate: Candidate
        switch routes.table.route(url) {
        case .noApp:
            if options.universalLinksOnly {
                return finish(.failure(ErrorBody(.noApp, "no app claims \(Redaction.redact(url: webpageURL)) and universalLinksOnly is set")), hop, completion)
            }
            return finish(.success(OpenResult(status: .browser)), hop, completion)
        case .excluded(let excluded):
            return finish(.failure(ErrorBody(
                .excluded, "\(excluded.appID)'s AASA excludes the URL at \(excluded.decision.pointer ?? "?"): \(excluded.decision.rule ?? "")",
                app: excluded.appID, rule: excluded.decision.pointer)), hop, completion)
        case .matched(let matched):
            candidate = matched
        }
        guard let handler = routes.handlers[candidate.appID] else {
            return finish(.failure(ErrorBody(.noApp, "\(candidate.appID) has no handler")), hop, completion)
        }

        let appID = candidate.appID
        let rule = candidate.decision.pointer ?? ""
        let opener = URLOpener(router: self, handoffID: hop.handoffID, hop: hop.number, appID: appID, eventLoop: eventLoop, maxOpened: maxOpenedURLs)
        let handoff = Handoff(activity: activity, appID: appID, rule: rule, eventLoop: eventLoop, logger: logger, opener: opener)
        // One callback per handoff, and no future of its own: this is the hot path.
        handler.handle(handoff).hop(to: eventLoop).whenComplete { [self] result in
            let outcome: Result<Bool, ErrorBody> = result.mapError { error in
                error as? ErrorBody ?? ErrorBody(.handlerFailed, "\(appID)'s handler failed: \(error)")
            }
            let (opened, overflowed) = opener.finish()
            guard !opened.isEmpty else {
                return conclude(outcome, opened: [], overflowed: overflowed, candidate: candidate, hop: hop, completion: completion)
            }
            EventLoopFuture.whenAllSucceed(opened, on: eventLoop).whenSuccess { [self] opened in
                conclude(outcome, opened: opened, overflowed: overflowed, candidate: candidate, hop: hop, completion: completion)
            }
        }
    }

    /// Turns a handler's answer, once every URL it opened is delivered, into the hop's result.
    private func conclude(
        _ outcome: Result<Bool, ErrorBody>, opened: [OpenedURL], overflowed: Bool, candidate: Candidate, hop: Hop, completion: Completion
    ) {
        let appID = candidate.appID
        let rule = candidate.decision.pointer ?? ""
        let outcome = overflowed
            ? .failure(ErrorBody(.handlerFailed, "\(appID)'s handler opened more than \(maxOpenedURLs) URLs (maxOpenedURLs)"))
            : outcome
        switch outcome {
        case .success(true):
            finish(.success(OpenResult(status: .handled, app: appID, domain: candidate.domain.description, rule: rule, opened: opened)), hop, completion)
        case .success(false):
            finish(.failure(ErrorBody(.declined, "\(appID) declined the activity (continue: false)", app: appID, rule: rule, opened: opened)), hop, completion)
        case .failure(var error):
            error.app = appID
            error.rule = rule
            error.opened = opened
            finish(.failure(error), hop, completion)
        }
    }

    /// Reports a hop's result. A top-level handoff leaves the in-flight count only after its reply is
    /// queued, so that a draining daemon closes connections behind their last replies.
    private func finish(_ result: Result<OpenResult, ErrorBody>, _ hop: Hop, _ completion: Completion) {
        record(result, hop)
        completion(result)
        if hop.number == 0 { inFlight.leave() }
    }

    /// Delivers a URL a handler opened, and describes what happened to it.
    func deliver(_ request: OpenURLRequest, handoffID: UInt64, hop: Int, from sender: Sender, on eventLoop: any EventLoop) -> EventLoopFuture<OpenedURL> {
        let shown = Redaction.redact(url: request.url)
        let universalLinksOnly = request.options.universalLinksOnly
        let promise = eventLoop.makePromise(of: OpenedURL.self)
        let hop = Hop(handoffID: handoffID, number: hop, sender: sender, url: request.url, started: .now())
        dispatch(Activity(webpageURL: request.url), options: request.options, hop: hop, on: eventLoop) { result in
            switch result {
            case .success(let handled) where handled.status == .handled:
                promise.succeed(OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .delivered, app: handled.app, rule: handled.rule))
            case .success:
                promise.succeed(OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .browser))
            case .failure(let error) where error.code == .declined:
                promise.succeed(OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .declined, app: error.app, rule: error.rule))
            case .failure(let error):
                promise.succeed(OpenedURL(url: shown, universalLinksOnly: universalLinksOnly, status: .failed, app: error.app, rule: error.rule, error: error))
            }
        }
        return promise.futureResult
    }

    /// Logs a finished handoff (one info line per hop, all hops of one `open` under one handoff id) and
    /// streams it to `watch` subscribers. The URL is redacted here; the log handler scrubs again.
    private func record(_ result: Result<OpenResult, ErrorBody>, _ hop: Hop) {
        let outcome: String
        let app: String?
        let rule: String?
        switch result {
        case .success(let handled):
            outcome = hop.number == 0 ? handled.status.rawValue : (handled.status == .handled ? "delivered" : handled.status.rawValue)
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
        let latency = (NIODeadline.now() - hop.started).nanoseconds / 1000
        let shown = Redaction.redact(url: hop.url)
        let sender = hop.sender
        if logs {
            var metadata: Logger.Metadata = [
                "handoff_id": "\(handoffIDs.name(hop.handoffID))", "hop": "\(hop.number)", "url": "\(shown)", "app": "\(app ?? "-")",
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
                time: Self.now(), from: sender.peer, client: sender.client, hop: hop.number, url: shown, app: app, rule: rule,
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

    /// The next handoff's number; ``name(_:)`` spells it out only when a log line or event needs it.
    func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }

    func name(_ number: UInt64) -> String {
        prefix + String(number)
    }
}
