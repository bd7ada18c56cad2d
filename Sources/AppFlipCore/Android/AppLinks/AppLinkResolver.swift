/// Which app opens an `http`/`https` link on Android, as the package manager resolves a VIEW intent with
/// category BROWSABLE for it, per generation (AOSP `PackageManagerService`/`ComputerEngine`
/// `filterCandidatesWithDomainPreferredActivitiesLPr`).
///
/// Android 6–11 give each app one status for all its hosts (`IntentFilterVerificationInfo`): `always` when
/// every host verified, and then its links open it without asking; otherwise (`ask`, `undefined`) its
/// matching links show the disambiguation dialog with the browsers. Several `always` apps: the one verified
/// last opens it (its app-link generation is its `preferredOrder`, `chooseBestActivity`).
///
/// Android 12+ approve an app per domain (`DomainVerificationService.approvalLevelForDomain`): the URL's host
/// verified exactly, or by a verified `*.` entry whose rest it ends with. An approved app opens the link,
/// several: the one first installed last (`filterToLastFirstInstalled`); none: the browser, never a dialog.
/// Android 15 also applies the approving statement's dynamic rules (`UriRelativeFilterGroup`), which take
/// the app out of the candidates for a URL they exclude.
///
/// Not played: a user's own choices (Android 11's `never`/`always ask`, Android 12's "Open supported
/// links" switch and the domains the user selected), a default browser's absence (with no browser, Android
/// 12+ offers the unverified apps), instant apps and other profiles.
public enum AppLinkResolver {
    /// The filter that takes a link.
    public struct Match: Sendable, Hashable {
        public let packageName: String
        /// The filter's index in the app's `intentFilters`.
        public let filterIndex: Int
        public let filter: IntentFilter
        /// The manifest host the filter matched the URL through, as written (`*.example.com`).
        public let host: String
    }

    /// An app installed on the device played: its identity, its hosts' verdicts, and its place in the
    /// device's history, which decides among several verified apps.
    public struct App: Sendable, Hashable {
        public var identity: AndroidIdentity
        /// One verifier's verdict per manifest host, for every host some generation verifies.
        public var verdicts: [String: HostVerdict]
        /// When it was first installed, in the device's order (`PackageSetting.getFirstInstallTime`).
        public var installed: Int
        /// When its Android 6–11 status last became `always` (its app-link generation), in the same order;
        /// nil when it is not `always`.
        public var verifiedAt: Int?

        /// An app installed at `installed`, `always` since `verifiedAt` before Android 12.
        public init(identity: AndroidIdentity, verdicts: [String: HostVerdict], installed: Int, verifiedAt: Int? = nil) {
            self.identity = identity
            self.verdicts = verdicts
            self.installed = installed
            self.verifiedAt = verifiedAt
        }

        /// Its Android 6–11 status, and why when it is not `always`.
        public var legacyStatus: (status: LegacyLinkStatus, state: AppLinkState, reason: String) {
            let hosts = identity.verificationHosts(on: .android11AndEarlier)
            guard !hosts.isEmpty else {
                return (.undefined, .none, "none of its intent filters asks Android to verify it: none has autoVerify and only http/https schemes")
            }
            let failed = hosts.lazy.compactMap { host in self.verdicts[host].map { (host, $0) } }.first { $0.1.state != .verified }
            if let (host, verdict) = failed {
                return (.ask, verdict.state, "Android 11 verifies all its hosts or none, and \(host) failed (\(verdict.state): \(verdict.reason))")
            }
            if let missing = hosts.first(where: { verdicts[$0] == nil }) {
                return (.ask, .none, "Android 11 verifies all its hosts or none, and nothing verified \(missing)")
            }
            return (.always, .verified, "every host verified: \(hosts.joined(separator: ", "))")
        }
    }

    /// An app whose filter matches, and why it does not open the link on its own.
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
        /// Filters match, but no app is approved for the host (Android 12+).
        case unverified([Unverified])
        /// The verified app's dynamic rules block the path (Android 15+).
        case excludedByDynamicRule(Match, DynamicAppLinkRule)
        /// The verified app's dynamic rules exist and none matches the URL (Android 15+).
        case noDynamicRuleMatched(Match)
    }

    public enum Resolution: Sendable, Hashable {
        /// One app opens the link; `passedOver` are the other verified apps, which the device's history put
        /// behind it (installed or verified before it).
        case opensApp(Match, passedOver: [Match])
        /// Android 6–11's disambiguation dialog: these apps, none `always`, and the browsers.
        case chooser([Unverified])
        case opensInBrowser(BrowserReason)
    }

    /// Resolves `url` among `apps` as `generation` does.
    public static func resolve(_ url: String, apps: [App], generation: AndroidGeneration) -> Resolution {
        guard let uri = AndroidURI(url), uri.scheme == "http" || uri.scheme == "https" else { return .opensInBrowser(.notWebLink) }
        let candidates = apps.compactMap { app in firstMatch(of: app.identity, for: uri).map { (app, $0) } }
        guard !candidates.isEmpty else { return .opensInBrowser(.noFilter) }
        if generation == .android11AndEarlier { return resolveLegacy(candidates) }

        var approved: [(App, Match)] = []
        var unverified: [Unverified] = []
        var blocked: BrowserReason?
        for (app, match) in candidates {
            let verdict = approval(of: app, host: uri.host)
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
            approved.append((app, match))
        }
        // `filterToLastFirstInstalled`: the approved app first installed last; a tie keeps the first met.
        if let winner = approved.max(by: { $0.0.installed < $1.0.installed }) {
            return .opensApp(winner.1, passedOver: approved.map(\.1).filter { $0 != winner.1 })
        }
        if let blocked { return .opensInBrowser(blocked) }
        return .opensInBrowser(.unverified(unverified))
    }

    /// Android 6–11: the `always` apps, the one verified last opening the link; without one, the dialog.
    private static func resolveLegacy(_ candidates: [(App, Match)]) -> Resolution {
        var always: [(App, Match)] = []
        var offered: [Unverified] = []
        for (app, match) in candidates {
            let status = app.legacyStatus
            if status.status == .always {
                always.append((app, match))
            } else {
                offered.append(Unverified(match: match, state: status.state, reason: status.reason))
            }
        }
        // `chooseBestActivity`: the highest app-link generation sorts first and differs from the next.
        if let winner = always.max(by: { ($0.0.verifiedAt ?? $0.0.installed) < ($1.0.verifiedAt ?? $1.0.installed) }) {
            return .opensApp(winner.1, passedOver: always.map(\.1).filter { $0 != winner.1 })
        }
        return .chooser(offered)
    }

    /// The verdict that approves `host` for `app` on Android 12+, or says why none does: the host's own
    /// entry when verified, else a verified `*.` entry whose rest the host ends with (`approvalLevelForDomain`,
    /// which compares with `endsWith`: `*.example.com` approves `example.com` too); else the failing entry
    /// that covers the host; else none.
    static func approval(of app: App, host uriHost: String) -> HostVerdict {
        let host = uriHost.lowercasedASCII
        let hosts = app.identity.verificationHosts
        let exact = hosts.contains(host) ? app.verdicts[host] : nil
        if let exact, exact.state == .verified { return exact }
        let wildcards = hosts.filter { $0.hasPrefix("*.") && host.hasSuffix($0.dropFirst(2)) }
        if let approving = wildcards.lazy.compactMap({ app.verdicts[$0] }).first(where: { $0.state == .verified }) { return approving }
        if let exact { return exact }
        if let covering = wildcards.lazy.compactMap({ app.verdicts[$0] }).first { return covering }
        if hosts.contains(host) || !wildcards.isEmpty {
            return HostVerdict(state: .none, reason: "no verification result for \(host)")
        }
        return HostVerdict(
            state: .none,
            reason: "no autoVerify filter (VIEW, BROWSABLE, DEFAULT, http/https only) asks Android to verify \(host)"
        )
    }

    /// The app's first BROWSABLE VIEW web filter matching `uri`, with the manifest host it matched through.
    private static func firstMatch(of app: AndroidIdentity, for uri: AndroidURI) -> Match? {
        for (index, filter) in app.intentFilters.enumerated() where filter.handlesWebLinks && filter.matchesData(uri) {
            let authority = filter.authorities.first { $0.matches(host: uri.host, port: uri.port) }
            return Match(packageName: app.package, filterIndex: index, filter: filter, host: authority?.host.lowercasedASCII ?? "*")
        }
        return nil
    }
}
