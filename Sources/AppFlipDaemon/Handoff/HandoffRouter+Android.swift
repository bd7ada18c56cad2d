import AppFlipCore
import AppFlipProtocol
import HashTreeCollections

/// Routing as Android resolves a VIEW intent for an https link (`AppLinkResolver`): for `open` on the
/// device the daemon plays, and for `explain` on every device.
extension HandoffRouter {
    /// The app that opens `webpageURL` with the configured verifier's verdicts on the configured release.
    func routeAsAndroid(_ webpageURL: String, routes: AppRegistry.Routes, options: OpenOptions) -> Decision {
        let apps = Self.linkApps(routes)
        let resolution = Self.resolve(webpageURL, apps: apps, verifier: android.verifier, generation: android.generation)
        let shown = Redaction.redact(url: webpageURL)
        switch resolution {
        case .opensApp(let match):
            guard let app = apps.first(where: { $0.identity.package == match.packageName }) else {
                return .concluded(.failure(ErrorBody(.noApp, "\(match.packageName) has no handler")))
            }
            return .app(RoutedApp(match, appID: app.appID), app.handler)
        case .chooser(let matches):
            let names = matches.map(\.packageName).joined(separator: ", ")
            return .concluded(
                .failure(
                    ErrorBody(.noApp, "Android would ask the user to choose among the verified apps \(names) for \(shown); appflipd does not choose")
                )
            )
        case .opensInBrowser(let reason):
            let why = AndroidBrowserReason.describe(reason)
            if options.universalLinksOnly {
                return .concluded(.failure(ErrorBody(.noApp, "no Android app opens \(shown) and universalLinksOnly is set: \(why)")))
            }
            return .concluded(.success(OpenResult(status: .browser, reason: why)))
        }
    }

    /// `explain`'s Android side: the configured device's decision, and each other verifier and release
    /// whose decision (the app, or the browser) differs.
    func explainAsAndroid(_ url: String) -> AndroidDecision {
        let apps = Self.linkApps(registry.routes)
        func decide(_ verifier: AppLinkVerifier, _ generation: AndroidGeneration) -> AndroidDecision {
            Self.decision(
                Self.resolve(url, apps: apps, verifier: verifier, generation: generation),
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

    private static func resolve(
        _ url: String,
        apps: [AndroidApp],
        verifier: AppLinkVerifier,
        generation: AndroidGeneration
    ) -> AppLinkResolver.Resolution {
        var verdicts: [String: [String: HostVerdict]] = [:]
        for app in apps { verdicts[app.identity.package] = app.appLinks?.verdicts[verifier] ?? [:] }
        return AppLinkResolver.resolve(url, apps: apps.map(\.identity), verdicts: verdicts, generation: generation)
    }

    private static func decision(
        _ resolution: AppLinkResolver.Resolution,
        apps: [AndroidApp],
        verifier: AppLinkVerifier,
        generation: AndroidGeneration
    ) -> AndroidDecision {
        let verifierName = AndroidSettings.name(of: verifier)
        let release = AndroidSettings.release(of: generation)
        func appID(_ package: String) -> String { apps.first { $0.identity.package == package }?.appID ?? package }
        switch resolution {
        case .opensApp(let match):
            return AndroidDecision(
                verifier: verifierName,
                generation: release,
                decision: .match,
                apps: [appID(match.packageName)],
                rule: AndroidBrowserReason.filterPointer(match.filterIndex),
                host: match.host
            )
        case .chooser(let matches):
            return AndroidDecision(verifier: verifierName, generation: release, decision: .chooser, apps: matches.map { appID($0.packageName) })
        case .opensInBrowser(let reason):
            return AndroidDecision(
                verifier: verifierName,
                generation: release,
                decision: .browser,
                apps: [],
                reason: AndroidBrowserReason.describe(reason)
            )
        }
    }
}
