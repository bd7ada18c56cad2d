/// Which app opens an `http`/`https` link on Android, as the package manager resolves a VIEW intent with
/// category BROWSABLE: the app whose filter matches and whose host is verified; otherwise the browser.
///
/// Android 6–11 verify an app once for all its hosts (any failure leaves every host unverified); Android
/// 12+ verify each host (`DomainVerificationManager`); Android 15+ also apply the verifying statement's
/// dynamic rules (`UriRelativeFilterGroup`). An unverified app can still be offered in the disambiguation
/// dialog, but it never opens a link on its own: that is what "opens in the browser" stands for here.
public enum AppLinkResolver {
    /// The filter that takes a link.
    public struct Match: Sendable, Hashable {
        public let packageName: String
        /// The filter's index in the app's `intentFilters`.
        public let filterIndex: Int
        public let filter: IntentFilter
        /// The manifest host whose verification decided, as the filter wrote it (`*.example.com`).
        public let host: String
    }

    /// An app whose filter matches, and why it does not open the link.
    public struct Unverified: Sendable, Hashable {
        public let match: Match
        public let state: AppLinkState
        public let reason: String
    }

    public enum BrowserReason: Sendable, Hashable {
        /// Not an `http` or `https` URL (schemes are case-sensitive: `HTTPS://` is not one).
        case notWebLink
        /// No app has a BROWSABLE VIEW filter for this URL.
        case noFilter
        /// Filters match, but no app is verified for the host.
        case unverified([Unverified])
        /// The verified app's dynamic rules block the path (Android 15+).
        case excludedByDynamicRule(Match, DynamicAppLinkRule)
        /// The verified app's dynamic rules exist and none matches the URL (Android 15+).
        case noDynamicRuleMatched(Match)
    }

    public enum Resolution: Sendable, Hashable {
        case opensApp(Match)
        /// Several verified apps: Android asks the user.
        case chooser([Match])
        case opensInBrowser(BrowserReason)
    }

    /// Resolves `url` among `apps`, with each app's verdicts by manifest host (`verdicts[package][host]`).
    public static func resolve(
        _ url: String,
        apps: [AndroidIdentity],
        verdicts: [String: [String: HostVerdict]],
        generation: AndroidGeneration
    ) -> Resolution {
        guard let uri = AndroidURI(url), uri.scheme == "http" || uri.scheme == "https" else { return .opensInBrowser(.notWebLink) }
        var verified: [Match] = []
        var unverified: [Unverified] = []
        var blocked: BrowserReason?
        for app in apps {
            guard let match = firstMatch(of: app, for: uri) else { continue }
            let appVerdicts = verdicts[app.package] ?? [:]
            let verdict = hostVerdict(app: app, host: match.host, verdicts: appVerdicts, generation: generation)
            guard verdict.state == .verified else {
                unverified.append(Unverified(match: match, state: verdict.state, reason: verdict.reason))
                continue
            }
            if generation == .android15 {
                switch DynamicAppLinkRule.decide(verdict.dynamicRules, for: uri) {
                case .excluded(let rule):
                    blocked = blocked ?? .excludedByDynamicRule(match, rule)
                    continue
                case .noRuleMatched:
                    blocked = blocked ?? .noDynamicRuleMatched(match)
                    continue
                case .noRules, .allowed:
                    break
                }
            }
            verified.append(match)
        }
        if verified.count == 1 { return .opensApp(verified[0]) }
        if verified.count > 1 { return .chooser(verified) }
        if let blocked { return .opensInBrowser(blocked) }
        return .opensInBrowser(unverified.isEmpty ? .noFilter : .unverified(unverified))
    }

    /// The app's first BROWSABLE VIEW web filter matching `uri`, with the manifest host it matched through.
    private static func firstMatch(of app: AndroidIdentity, for uri: AndroidURI) -> Match? {
        for (index, filter) in app.intentFilters.enumerated() where filter.handlesWebLinks && filter.matchesData(uri) {
            let authority = filter.authorities.first { $0.matches(host: uri.host, port: uri.port) }
            return Match(packageName: app.package, filterIndex: index, filter: filter, host: authority?.host.lowercasedASCII ?? "*")
        }
        return nil
    }

    /// The verdict that applies to `host` on `generation`.
    private static func hostVerdict(
        app: AndroidIdentity,
        host: String,
        verdicts: [String: HostVerdict],
        generation: AndroidGeneration
    ) -> HostVerdict {
        let hosts = app.verificationHosts
        guard hosts.contains(host) else {
            return HostVerdict(
                state: .none,
                reason: "no autoVerify filter (VIEW, BROWSABLE, DEFAULT, http/https only) asks Android to verify \(host)"
            )
        }
        if generation == .android11AndEarlier {
            for other in hosts where verdicts[other]?.state != .verified {
                let why = verdicts[other].map { "\($0.state): \($0.reason)" } ?? "not verified"
                return HostVerdict(state: .none, reason: "Android 11 and earlier verify all hosts or none, and \(other) failed (\(why))")
            }
        }
        return verdicts[host] ?? HostVerdict(state: .none, reason: "no verification result for \(host)")
    }
}
