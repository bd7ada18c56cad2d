import AppFlipCore
import AppFlipProtocol

/// What each verifier decided about an app's App Links hosts, decided once when the app is loaded or
/// registered, from the statement lists configured for its hosts (`android.assetLinks`): the daemon fetches
/// nothing, so a list stands for what `https://HOST/.well-known/assetlinks.json` answers (200,
/// `application/json`), and an `include` in it has nothing to reach.
struct AppLinkVerification: Sendable {
    /// Each verifier's verdict per manifest host, as Android 12+ records it per host; the resolver applies
    /// the generation (all hosts or none before 12, dynamic rules from 15).
    let verdicts: [AppLinkVerifier: [String: HostVerdict]]

    /// Verifies `identity`'s hosts against `statementLists` (bytes by host, lower-cased).
    /// - Throws: a host with a list that no autoVerify filter asks to verify, at `android.assetLinks.HOST`.
    init(identity: AndroidIdentity, statementLists: [String: [UInt8]]) throws(ErrorBody) {
        try Self.check(hosts: statementLists.keys, of: identity)
        var responses: [String: FetchResult] = [:]
        for (host, body) in statementLists {
            let url = WebSite(scheme: "https", host: host).statementListURL
            responses[url] = .response(HostResponse(status: 200, contentType: "application/json", contentLength: body.count, body: body))
        }
        var verdicts: [AppLinkVerifier: [String: HostVerdict]] = [:]
        for verifier in AppLinkVerifier.allCases {
            var byHost = AppLinksPrediction.verdicts(for: identity, verifier: verifier, generation: .android12, responses: responses)
            for host in identity.verificationHosts where statementLists[Self.apex(host)] == nil {
                byHost[host] = HostVerdict(
                    state: .none,
                    reason: "no statement list is configured for \(Self.apex(host)) (android.assetLinks), so nothing verifies it"
                )
            }
            verdicts[verifier] = byHost
        }
        self.verdicts = verdicts
    }

    /// Refuses a statement list for a host that none of the identity's autoVerify filters asks to verify:
    /// Android would never fetch it.
    static func check(hosts: some Sequence<String>, of identity: AndroidIdentity) throws(ErrorBody) {
        let apexes = Set(identity.verificationHosts.map(apex))
        for host in hosts.sorted() where !apexes.contains(host.lowercased()) {
            throw ErrorBody(
                .invalidRequest,
                "no autoVerify filter (VIEW, BROWSABLE, DEFAULT, http/https only) asks Android to verify \(host)",
                field: "android.assetLinks.\(host)"
            )
        }
    }

    /// The host whose statement list verifies a manifest host: `*.example.com` is verified at `example.com`.
    static func apex(_ host: String) -> String {
        host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
    }
}
