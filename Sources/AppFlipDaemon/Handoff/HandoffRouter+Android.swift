import AppFlipCore
import AppFlipProtocol
import HashTreeCollections

/// Routing as Android resolves a VIEW intent for an https link (`AppLinkResolver`): for `open` on the
/// device the daemon plays, and for `explain` on every device.
extension HandoffRouter {
    /// The app that opens `webpageURL` with the configured verifier's verdicts on the configured release.
    /// Android 6–11's disambiguation dialog asks a user the daemon does not have: nothing opens the link, and
    /// the reply says `chooser` (with `universalLinksOnly`, the error `no_app`), as `browser` says that the
    /// browser, which the daemon does not have either, would open it.
    func routeAsAndroid(_ webpageURL: String, routes: AppRegistry.Routes, options: OpenOptions) -> Decision {
        let apps = Self.linkApps(routes)
        let resolution = AppLinkResolver.resolve(webpageURL, apps: apps.map { $0.resolverApp(android.verifier) }, generation: android.generation)
        let shown = Redaction.redact(url: webpageURL)
        switch resolution {
        case .opensApp(let match, _):
            guard let app = apps.first(where: { $0.identity.package == match.packageName }) else {
                return .concluded(.failure(ErrorBody(.noApp, "\(match.packageName) has no handler")))
            }
            return .app(RoutedApp(match, appID: app.appID), app.handler)
        case .chooser(let offered):
            let why = AndroidRoutingReason.describe(chooser: offered)
            if options.universalLinksOnly {
                return .concluded(.failure(ErrorBody(.noApp, "no Android app opens \(shown) on its own and universalLinksOnly is set: \(why)")))
            }
            let offeredApps = offered.map { offer in Self.appID(offer.match.packageName, in: apps) }
            return .concluded(.success(OpenResult(status: .chooser, reason: why, apps: offeredApps)))
        case .opensInBrowser(let reason):
            let why = AndroidRoutingReason.describe(reason)
            if options.universalLinksOnly {
                return .concluded(.failure(ErrorBody(.noApp, "no Android app opens \(shown) and universalLinksOnly is set: \(why)")))
            }
            return .concluded(.success(OpenResult(status: .browser, reason: why)))
        }
    }

    /// `explain`'s Android side: the configured device's decision, and each other verifier and release
    /// whose decision (the app, the dialog, or the browser) differs.
    func explainAsAndroid(_ url: String) -> AndroidDecision {
        let apps = Self.linkApps(registry.routes)
        func decide(_ verifier: AppLinkVerifier, _ generation: AndroidGeneration) -> AndroidDecision {
            Self.decision(
                AppLinkResolver.resolve(url, apps: apps.map { $0.resolverApp(verifier) }, generation: generation),
                apps: apps,
                verifier: verifier,
                generation: generation
            )
        }
        var decision = decide(android.verifier, android.generation)
        var otherwise: [AndroidDecision] = []
        for verifier in AppLinkVerifier.allCases {
            for generation in AndroidGeneration.allCases where (verifier, generation) != (android.verifier, android.generation) {
                let other = decide(verifier, generation)
                if (other.decision, other.apps, other.rule) != (decision.decision, decision.apps, decision.rule) { otherwise.append(other) }
            }
        }
        decision.otherwise = otherwise
        return decision
    }

    /// The apps with intent filters, in package order: the order the resolver offers them in.
    private static func linkApps(_ routes: AppRegistry.Routes) -> [AndroidApp] {
        routes.packages.values.filter { !$0.identity.intentFilters.isEmpty }.sorted { $0.identity.package < $1.identity.package }
    }

    /// The app id of the app that is `package`.
    private static func appID(_ package: String, in apps: [AndroidApp]) -> String {
        apps.first { $0.identity.package == package }?.appID ?? package
    }

    private static func decision(
        _ resolution: AppLinkResolver.Resolution,
        apps: [AndroidApp],
        verifier: AppLinkVerifier,
        generation: AndroidGeneration
    ) -> AndroidDecision {
        let verifierName = AndroidSettings.name(of: verifier)
        let release = AndroidSettings.release(of: generation)
        switch resolution {
        case .opensApp(let match, let passedOver):
            return AndroidDecision(
                verifier: verifierName,
                generation: release,
                decision: .match,
                apps: [appID(match.packageName, in: apps)],
                rule: AndroidRoutingReason.filterPointer(match.filterIndex),
                host: match.host,
                reason: passedOver.isEmpty
                    ? nil
                    : AndroidRoutingReason.describe(
                        winner: appID(match.packageName, in: apps),
                        over: passedOver.map { appID($0.packageName, in: apps) },
                        generation: generation
                    )
            )
        case .chooser(let offered):
            return AndroidDecision(
                verifier: verifierName,
                generation: release,
                decision: .chooser,
                apps: offered.map { appID($0.match.packageName, in: apps) },
                reason: AndroidRoutingReason.describe(chooser: offered)
            )
        case .opensInBrowser(let reason):
            return AndroidDecision(
                verifier: verifierName,
                generation: release,
                decision: .browser,
                apps: [],
                reason: AndroidRoutingReason.describe(reason)
            )
        }
    }
}
