import AppFlipCore
import AppFlipProtocol

/// What each verifier decided about an app's App Links hosts, decided once when the app is loaded or
/// registered (and again on each reload), from the statement lists configured for its hosts
/// (`android.assetLinks`): the daemon fetches nothing, so a list stands for what
/// `https://HOST/.well-known/assetlinks.json` answers (200, `application/json`, with its `Content-Length`),
/// and an `include` in it has nothing to reach.
struct AppLinkVerification: Sendable {
    /// Each verifier's verdict per manifest host, for every host some generation verifies (Android 12+ the
    /// autoVerify filters' hosts, Android 6–11 every web filter's once one asks); the resolver applies the
    /// generation (all hosts or none before 12, dynamic rules from 15).
    let verdicts: [AppLinkVerifier: [String: HostVerdict]]

    /// Verifies `identity`'s hosts against `statementLists` (bytes by host, lower-cased).
    /// - Throws: a host with a list that no filter asks to verify, at `android.assetLinks.HOST`.
    init(identity: AndroidIdentity, statementLists: [String: [UInt8]]) throws(ErrorBody) {
        try Self.check(hosts: statementLists.keys, of: identity)
        var responses: [String: FetchResult] = [:]
        for (host, body) in statementLists {
            let url = WebSite(scheme: "https", host: host).statementListURL
            responses[url] = .response(HostResponse(status: 200, contentType: "application/json", contentLength: body.count, body: body))
        }
        var verdicts: [AppLinkVerifier: [String: HostVerdict]] = [:]
        for verifier in AppLinkVerifier.allCases {
            var byHost: [String: HostVerdict] = [:]
            for host in identity.anyGenerationVerificationHosts {
                // A list's Content-Length is its size: Android 6–11's fetcher and its successor read it alike.
                byHost[host] =
                    statementLists[Self.apex(host)] == nil
                    ? HostVerdict(
                        state: .none,
                        reason: "no statement list is configured for \(Self.apex(host)) (android.assetLinks), so nothing verifies it"
                    )
                    : AppLinksPrediction.hostVerdict(host, app: identity, verifier: verifier, responses: responses)
            }
            verdicts[verifier] = byHost
        }
        self.verdicts = verdicts
    }

    /// Refuses a statement list for a host that no filter asks to verify on any generation: Android would
    /// never fetch it.
    static func check(hosts: some Sequence<String>, of identity: AndroidIdentity) throws(ErrorBody) {
        let apexes = Set(identity.anyGenerationVerificationHosts.map(apex))
        for host in hosts.sorted() where !apexes.contains(host.lowercased()) {
            throw ErrorBody(
                .invalidRequest,
                "no intent filter asks Android to verify \(host): an autoVerify filter with VIEW, BROWSABLE, DEFAULT and only http/https "
                    + "schemes does (before Android 12, so does any web filter of an app that has one)",
                field: "android.assetLinks.\(host)"
            )
        }
    }

    /// The host whose statement list verifies a manifest host: `*.example.com` is verified at `example.com`.
    static func apex(_ host: String) -> String {
        host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
    }

    /// The app as `verifier`'s device knows it, for the resolver.
    func app(_ identity: AndroidIdentity, verifier: AppLinkVerifier, installed: Int, verifiedAt: Int?) -> AppLinkResolver.App {
        AppLinkResolver.App(identity: identity, verdicts: verdicts[verifier] ?? [:], installed: installed, verifiedAt: verifiedAt)
    }

    /// Whether the app's Android 6–11 status under `verifier` is `always`.
    func isAlways(_ identity: AndroidIdentity, verifier: AppLinkVerifier) -> Bool {
        app(identity, verifier: verifier, installed: 0, verifiedAt: nil).legacyStatus.status == .always
    }

    /// The app's hosts as `pm get-app-links` shows them on the device `android` plays (on Android 6–11, the
    /// hosts it verifies with each verdict, and the app's one status as `pm get-app-link` prints it).
    func states(of identity: AndroidIdentity, on android: AndroidSettings) -> DomainVerificationStates {
        let byHost = verdicts[android.verifier] ?? [:]
        let hosts = identity.verificationHosts(on: android.generation).map { host in
            let verdict = byHost[host] ?? HostVerdict(state: .none, reason: "no verification result for \(host)")
            return DomainVerificationStates.Host(host: host, state: verdict.state.description, reason: verdict.reason)
        }
        let status =
            android.generation == .android11AndEarlier
            ? app(identity, verifier: android.verifier, installed: 0, verifiedAt: nil).legacyStatus.status.rawValue : nil
        return DomainVerificationStates(
            verifier: AndroidSettings.name(of: android.verifier),
            generation: AndroidSettings.release(of: android.generation),
            status: status,
            hosts: hosts
        )
    }
}
