import AppFlipCore
import AppFlipProtocol
import HashTreeCollections

/// Decides which app a link goes to, as iOS (universal links) or Android (App Links) would, and explains the
/// decision: routing only. What happens to
/// the handoff after that is its ``HandoffHop``'s.
final class HandoffRouter: Sendable {
    /// Where a URL goes.
    enum Decision {
        /// To this app's handler.
        case app(RoutedApp, any ActivityHandler)
        /// Nowhere: the hop ends here with this result (the browser, or a refusal).
        case concluded(Result<OpenResult, ErrorBody>)
    }

    let registry: AppRegistry
    /// The platform an `open` without `options.platform` emulates.
    private let platform: Platform
    let android: AndroidSettings

    init(registry: AppRegistry, platform: Platform, android: AndroidSettings) {
        self.registry = registry
        self.platform = platform
        self.android = android
    }

    /// The app that opens `url`, against the routes in force now, as the platform the options name (or
    /// the daemon's) would choose it.
    func route(_ url: RawURL, webpageURL: String, options: OpenOptions) -> Decision {
        let routes = registry.routes
        if (options.platform ?? platform) == .android {
            return routeAsAndroid(webpageURL, routes: routes, options: options)
        }
        switch routes.table.route(url) {
        case .noApp:
            if options.universalLinksOnly {
                return .concluded(.failure(ErrorBody(.noApp, "no app claims \(Redaction.redact(url: webpageURL)) and universalLinksOnly is set")))
            }
            return .concluded(.success(OpenResult(status: .browser)))
        case .excluded(let excluded):
            return .concluded(
                .failure(
                    ErrorBody(
                        .excluded,
                        "\(excluded.appID)'s AASA excludes the URL at \(excluded.decision.pointer ?? "?"): \(excluded.decision.rule ?? "")",
                        app: excluded.appID,
                        rule: excluded.decision.pointer
                    )
                )
            )
        case .matched(let candidate):
            guard let handler = routes.handlers[candidate.appID] else {
                return .concluded(.failure(ErrorBody(.noApp, "\(candidate.appID) has no handler")))
            }
            return .app(RoutedApp(candidate), handler)
        }
    }

    /// Answers an `explain` request: the decision and every candidate's, without delivering anything.
    func explain(_ request: ExplainRequest) -> Result<ExplainResult, ErrorBody> {
        let url: RawURL
        do { url = try Self.universalLink(request.url, field: "url") } catch { return .failure(error) }
        let table = registry.routes.table
        let candidates = table.explain(url).map { candidate in
            CandidateDecision(
                app: candidate.appID,
                domain: "\(candidate.domain)",
                outcome: candidate.decision.outcome.rawValue,
                rule: candidate.decision.pointer ?? "",
                details: candidate.decision.detailsIndex,
                component: candidate.decision.componentIndex
            )
        }
        switch table.route(url) {
        case .matched(let candidate):
            return .success(
                ExplainResult(
                    url: request.url,
                    decision: .match,
                    app: candidate.appID,
                    rule: candidate.decision.pointer,
                    candidates: candidates,
                    android: explainAsAndroid(request.url)
                )
            )
        case .excluded(let candidate):
            return .success(
                ExplainResult(
                    url: request.url,
                    decision: .exclude,
                    app: candidate.appID,
                    rule: candidate.decision.pointer,
                    candidates: candidates,
                    android: explainAsAndroid(request.url)
                )
            )
        case .noApp:
            return .success(
                ExplainResult(url: request.url, decision: .noApp, app: nil, rule: nil, candidates: candidates, android: explainAsAndroid(request.url))
            )
        }
    }

    /// Parses a URL that is to be routed as a universal link: valid, absolute, https. Throws rather than
    /// returning a `Result`, whose copies of the URL's strings cost an atomic count each on the hot path.
    static func universalLink(_ string: String, field: String) throws(ErrorBody) -> RawURL {
        let url: RawURL
        do {
            url = try RawURL(string)
        } catch {
            throw ErrorBody(.invalidURL, "\(field) is not a usable URL: \(error)", field: field)
        }
        guard url.normalizedScheme == "https" else {
            throw ErrorBody(.notHTTPS, "universal links are https; the scheme is \"\(url.scheme)\"", field: field)
        }
        return url
    }
}
