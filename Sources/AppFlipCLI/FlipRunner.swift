import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipOAuth
import AppFlipProtocol
import AsyncHTTPClient
import Logging
import NIOConcurrencyHelpers
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// One App Flip, played as the Google app: send the flip link, take the result URL delivered to the
/// registered Google app, check it, and exchange the code as Google's server would.
struct FlipRunner: Sendable {
    var partnerLink: RawURL
    var clientID: String
    var scopes: [String]
    var state: String
    var redirectURI: AppFlipRedirectURI
    /// nil: stop after the result is checked (`--no-exchange`).
    var tokenEndpoint: FlipTokenEndpoint?
    /// How long to wait for the daemon's reply.
    var timeout: Duration

    var link: String {
        FlipLink.link(to: partnerLink, clientID: clientID, scopes: scopes, state: state, redirectURI: redirectURI.string)
    }

    /// - Parameter events: the daemon's `watch` stream, collected by `FlipEventLog`, for the per-step times.
    func run(connection: AppFlipConnection, google: FlipGoogleApp, events: FlipEventLog?, httpClient: HTTPClient?, logger: Logger) async
        -> FlipReport
    {
        let link = self.link
        var report = FlipReport(link: link, state: state, redirectURI: redirectURI.string)
        _ = google.takeReceived()
        let sent = WallClock.now()
        let request = OpenRequest(activity: Activity(activityType: browsingWebActivityType, webpageURL: link), options: OpenOptions(universalLinksOnly: true))
        let reply: Reply
        do {
            reply = try await withTimeout(timeout) { try await connection.send(.open(request)).get() }
        } catch {
            report.fail(.linkOpened, milliseconds: WallClock.since(sent), "no reply from appflipd within \(timeout): \(error)", exitStatus: 1)
            return report
        }
        let replied = WallClock.now()
        let urls = google.takeReceived()
        let times = await events?.times(link: link, result: urls.first, sent: sent, delivered: replied)

        let result: OpenResult
        switch reply.outcome {
        case .success(.open(let open)):
            result = open
        case .success(let other):
            report.fail(.linkOpened, milliseconds: nil, "unexpected \(other.op.rawValue) reply", exitStatus: 1)
            return report
        case .failure(let error):
            report.app = error.app
            switch error.code {
            case .declined:
                report.record(.linkOpened, .ok, milliseconds: times?.routed, "routed to \(error.app ?? "?")")
                report.fail(
                    .parametersChecked, milliseconds: times?.handled,
                    "the app declined the link (continue: false) and opened nothing: it refused the client_id or the redirect_uri, or was scripted to decline (appflipd's log says why)",
                    exitStatus: 1)
            case .timeout, .handlerFailed:
                report.record(.linkOpened, .ok, milliseconds: times?.routed, "routed to \(error.app ?? "?")")
                report.fail(.codeObtained, milliseconds: times?.handled, "the app did not answer: \(error.message)", exitStatus: 1)
            default:
                report.fail(.linkOpened, milliseconds: WallClock.between(sent, replied), "\(error.code.rawValue): \(error.message)", exitStatus: 1)
            }
            return report
        }
        report.app = result.app
        report.record(.linkOpened, .ok, milliseconds: times?.routed, "routed to \(result.app ?? "?") by \(result.rule ?? "?")")
        guard let opened = result.opened.first else {
            report.fail(.parametersChecked, milliseconds: times?.handled, "the app continued but opened no result URL", exitStatus: 2)
            return report
        }
        guard opened.status == .delivered, let resultURL = urls.first else {
            report.record(.parametersChecked, .ok, milliseconds: nil)
            report.record(.codeObtained, .ok, milliseconds: times?.handled)
            let why = opened.error.map { "\($0.code.rawValue): \($0.message)" } ?? opened.status.rawValue
            report.fail(.resultDelivered, milliseconds: nil, "the result URL \(opened.url) was not delivered to the Google app: \(why)", exitStatus: 2)
            return report
        }
        if result.opened.count > 1 {
            report.violations.append("the app opened \(result.opened.count) URLs; exactly one result URL is allowed")
        }

        let verdict = FlipResultChecker(redirectURI: redirectURI.string, state: state).check(resultURL)
        report.violations += verdict.violations.map(\.description)
        report.deviations = verdict.deviations.map(\.description)
        switch verdict.outcome {
        case .error(let error, let description)?:
            report.result = error.rawValue
            report.errorDescription = description
            let checked = error != .invalidRequest
            report.record(.parametersChecked, checked ? .ok : .failed, milliseconds: nil,
                checked ? nil : "the app answered invalid_request" + (description.map { ": \($0)" } ?? ""))
            if checked {
                report.fail(.codeObtained, milliseconds: times?.handled,
                    "the app answered error=\(error.rawValue)" + (description.map { ": \($0)" } ?? ""), exitStatus: report.violations.isEmpty ? 1 : 2)
            } else {
                report.record(.codeObtained, .skipped, milliseconds: nil)
                report.record(.resultDelivered, .skipped, milliseconds: nil)
                report.record(.tokensExchanged, .skipped, milliseconds: nil)
                report.failure = "step 2 (app checked the parameters) failed: invalid_request" + (description.map { ": \($0)" } ?? "")
                report.exitStatus = report.violations.isEmpty ? 1 : 2
            }
            return report
        case .code(let code)?:
            report.result = "code"
            report.record(.parametersChecked, .ok, milliseconds: nil, "accepted (steps 2 and 3 are timed together: the app's own work)")
            report.record(.codeObtained, .ok, milliseconds: times?.handled, "\(code.utf8.count) bytes, sha256:\(Fingerprint.of(code))")
            guard report.violations.isEmpty else {
                report.fail(.resultDelivered, milliseconds: times?.delivered, "the result URL breaks App Flip's rules: " + report.violations.joined(separator: "; "), exitStatus: 2)
                return report
            }
            report.record(.resultDelivered, .ok, milliseconds: times?.delivered, "state echoed byte for byte")
            guard let tokenEndpoint, let httpClient else {
                report.record(.tokensExchanged, .skipped, milliseconds: nil, "--no-exchange")
                return report
            }
            let exchanger = TokenExchangeClient(
                tokenURL: tokenEndpoint.url, clientID: clientID, clientSecret: tokenEndpoint.clientSecret, httpClient: httpClient, logger: logger)
            let started = WallClock.now()
            do {
                let tokens = try await exchanger.exchange(code: code, redirectURI: redirectURI.string)
                report.tokens = tokens.report
                if let refreshToken = tokens.refreshToken {
                    report.refreshed = try await exchanger.refresh(refreshToken: refreshToken).report
                }
            } catch {
                report.fail(.tokensExchanged, milliseconds: WallClock.since(started), "\(tokenEndpoint.url): \(error)", exitStatus: 1)
                return report
            }
            let broken = (report.tokens?.violations ?? []) + (report.refreshed?.violations.map { "refresh: \($0)" } ?? [])
            if broken.isEmpty {
                report.record(.tokensExchanged, .ok, milliseconds: WallClock.since(started), report.tokens?.summary)
            } else {
                report.fail(.tokensExchanged, milliseconds: WallClock.since(started), "the token response breaks Google's account-linking rules: " + broken.joined(separator: "; "), exitStatus: 2)
            }
            return report
        case nil:
            report.record(.parametersChecked, .ok, milliseconds: nil)
            report.record(.codeObtained, .ok, milliseconds: times?.handled)
            report.fail(.resultDelivered, milliseconds: times?.delivered, "the result URL is not a valid App Flip result: " + report.violations.joined(separator: "; "), exitStatus: 2)
            return report
        }
    }
}

/// The daemon's `watch` events, kept so that a flip's hops can be timed from the daemon's own clock.
final class FlipEventLog: Sendable {
    private let events = NIOLockedValueBox<[HandoffEvent]>([])
    private let task: NIOLockedValueBox<Task<Void, Never>?> = .init(nil)

    init(_ stream: AsyncStream<HandoffEvent>) {
        let events = self.events
        task.withLockedValue {
            $0 = Task {
                for await event in stream { events.withLockedValue { $0.append(event) } }
            }
        }
    }

    func stop() {
        task.withLockedValue { $0?.cancel() }
    }

    /// Milliseconds of each step: routed = link sent → the partner's handoff began; handled = that →
    /// the partner opened the result (steps 2 and 3, inside the app); delivered = that → the Google app
    /// had it. Waits up to a second for the events, which the daemon publishes as each handoff ends.
    func times(link: String, result: String?, sent: Double, delivered: Double) async -> (routed: Double?, handled: Double?, delivered: Double?) {
        let linkShown = Redaction.redact(url: link)
        let resultShown = result.map { Redaction.redact(url: $0) }
        for _ in 0..<100 {
            let (first, second) = events.withLockedValue { events in
                (events.last { $0.hop == 0 && $0.url == linkShown }, resultShown.flatMap { shown in events.last { $0.hop == 1 && $0.url == shown } })
            }
            if let first, result == nil || second != nil {
                let handoffStart = first.time - Double(first.latencyMicros) / 1e6
                let resultStart = second.map { $0.time - Double($0.latencyMicros) / 1e6 }
                return (
                    routed: max(0, (handoffStart - sent) * 1000),
                    handled: resultStart.map { max(0, ($0 - handoffStart) * 1000) } ?? max(0, (first.time - handoffStart) * 1000),
                    delivered: resultStart.map { max(0, (delivered - $0) * 1000) }
                )
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return (nil, nil, nil)
    }
}

/// Wall-clock seconds, comparable with the daemon's event times on the same machine.
enum WallClock {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func since(_ start: Double) -> Double { (now() - start) * 1000 }
    static func between(_ start: Double, _ end: Double) -> Double { (end - start) * 1000 }
}

struct FlipTimeoutError: Error, CustomStringConvertible {
    var description: String { "timed out" }
}

func withTimeout<Value: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let value = try await group.next() ?? nil else { throw FlipTimeoutError() }
        return value
    }
}
