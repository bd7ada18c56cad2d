import AppFlipAudit
import AppFlipClient
import AppFlipCore
import AppFlipHTTPClient
import AppFlipOAuth
import AppFlipProtocol
import AppFlipTesting
import Logging

/// A partner app registered live on a test daemon for `https://broken.test/link/*`: App Flip done right
/// with the core's `FlipPolicy` and codes from the embedded server, but for one ``PartnerBug`` (or none).
enum LivePartner {
    static let link = "https://broken.test/link/flip"
    static let appID = "BROKEN0001.test.broken"

    /// Registers the partner on a connection of its own, runs `body`, then closes the connection.
    static func run<Result: Sendable>(
        bug: PartnerBug?,
        daemon: TestDaemon,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let codes = try await daemon.oauthServer!.authorizationEndpoint(signedInAs: "alice", httpClient: daemon.httpClient!, logger: logger)
        let allowlist =
            try bug == .productionRedirectsOnly
            ? RedirectAllowlist(appFlip: AppFlipRedirectURI.all.filter { $0.environment == .production }) : .appFlip
        let policy = try FlipPolicy(expectedClientIDs: [TestPartner.clientID], allowedRedirectURIs: allowlist)
        let connection = try await daemon.connect(client: "broken-partner")
        _ = try await connection.register(
            RegisterRequest(appID: appID, domains: ["applinks:broken.test"], components: [.object(["/": .string("/link/*")])]),
            handler: AsyncLiveApp { push in
                guard let url = try? RawURL(push.activity.webpageURL ?? "") else { return LiveAnswer(continue: false) }
                return await answer(url, bug: bug, policy: policy, codes: codes)
            }
        )
        do {
            let result = try await body()
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }

    private static func open(_ urls: [String], universalLinksOnly: Bool = true) -> LiveAnswer {
        LiveAnswer(continue: true, open: urls.map { OpenURLRequest(url: $0, options: OpenOptions(universalLinksOnly: universalLinksOnly)) })
    }

    private static func answer(_ url: RawURL, bug: PartnerBug?, policy: FlipPolicy, codes: AuthorizationEndpoint) async -> LiveAnswer {
        let link = FlipLink(url)
        if bug == .googleSample { return await googleSample(link, codes: codes) }
        if bug == .checksFirstRedirectURI, let polluted = await checkingFirstRedirectURI(url, policy: policy, codes: codes) { return polluted }
        var decision = policy.decide(link)
        // The bugs that let a link through which the policy refuses.
        if case .decline(let reason) = decision {
            switch (bug, reason) {
            case (.acceptsAnyClientID, .clientIDNotExpected):
                decision = (try? FlipPolicy(expectedClientIDs: [link.clientID ?? "x"]))?.decide(link) ?? decision
            case (.clientIDAnyCase, .clientIDNotExpected) where link.clientID?.lowercased() == TestPartner.clientID.lowercased():
                decision = (try? FlipPolicy(expectedClientIDs: [link.clientID ?? "x"]))?.decide(link) ?? decision
            case (.clientIDDecodedTwice, .clientIDNotExpected) where link.clientID.flatMap(PercentEncoding.formDecode) == TestPartner.clientID:
                decision = (try? FlipPolicy(expectedClientIDs: [link.clientID ?? "x"]))?.decide(link) ?? decision
            case (.prefixRedirect, .redirectURINotAllowed):
                guard let redirectURI = link.redirectURI, let state = link.state,
                    AppFlipRedirectURI.all.contains(where: { redirectURI.lowercased().hasPrefix($0.string.lowercased()) }),
                    let code = try? await codes.authorizationCode(
                        for: AuthorizationRequest(clientID: TestPartner.clientID, redirectURI: AppFlipRedirectURI.all[0].string, scopes: link.scopes)
                    )
                else { return LiveAnswer(continue: false) }
                return open([redirectURI + "?" + FlipResult.code(code, state: state).query])
            default:
                break
            }
        }
        switch decision {
        case .decline:
            return LiveAnswer(continue: false)
        case .invalidRequest(let redirectURI, let state, let description):
            switch bug {
            case .declinesInvalidRequest: return LiveAnswer(continue: false)
            case .userNotAuthorized:
                return open([redirectURI.string + "?error=user_not_authorized" + (state.map { "&state=" + PercentEncoding.encodeStrictly($0) } ?? "")]
                )
            default: return open([FlipResult.error(.invalidRequest, description: description, state: state).url(appendingTo: redirectURI)])
            }
        case .proceed(let request):
            if bug == .declinesValidFlip { return LiveAnswer(continue: false) }
            if bug == .opensNothing { return LiveAnswer(continue: true, open: []) }
            if bug == .refusesScopeList && request.authorizationRequest.scopes.count > 1 {
                return open([FlipResult.error(.invalidRequest, description: "scope", state: request.state).url(appendingTo: request.redirectURI)])
            }
            var authorization = request.authorizationRequest
            if bug == .asksForEveryScope { authorization.scopes = ["profile", "devices"] }
            if bug == .keepsFirstScope { authorization.scopes = Array(authorization.scopes.prefix(1)) }
            if bug == .refusesPartOfTheScopes && Set(authorization.scopes) != ["profile", "devices"] {
                return open([
                    FlipResult.error(.invalidRequest, description: "every scope is required", state: request.state).url(
                        appendingTo: request.redirectURI
                    )
                ])
            }
            guard bug != .authorizationDown, let code = try? await codes.authorizationCode(for: authorization) else {
                let description = bug == .authorizationDown ? "the authorization endpoint is down" : nil
                return open([FlipResult.error(.cancelled, description: description, state: request.state).url(appendingTo: request.redirectURI)])
            }
            let result = FlipResult.code(code, state: request.state).url(appendingTo: request.redirectURI)
            switch bug {
            case .stateUnencodedWithCode: return open([request.redirectURI.string + "?code=" + code + "&state=" + request.state])
            case .notUniversalLinksOnly: return open([result], universalLinksOnly: false)
            case .extraParameter: return open([result + "&scope=profile"])
            case .opensTwice: return open([result, result])
            case .extraPathSegment: return open([request.redirectURI.string + "/extra?" + FlipResult.code(code, state: request.state).query])
            case .repeatsCode: return open([result + "&code=" + code])
            default: return open([result])
            }
        }
    }

    /// With `redirect_uri` more than once: decides on the link with only the first, and opens the code on the
    /// last. Nil when `redirect_uri` is there once or not at all.
    private static func checkingFirstRedirectURI(_ url: RawURL, policy: FlipPolicy, codes: AuthorizationEndpoint) async -> LiveAnswer? {
        let fields = (url.query ?? "").split(separator: "&")
        let redirects = fields.filter { $0.hasPrefix("redirect_uri=") }
        guard redirects.count > 1, let last = PercentEncoding.formDecode(redirects.last!.dropFirst("redirect_uri=".count)) else { return nil }
        let firstOnly = fields.filter { !$0.hasPrefix("redirect_uri=") || $0 == redirects.first! }.joined(separator: "&")
        guard let checked = try? RawURL(url.string.prefix { $0 != "?" } + "?" + firstOnly),
            case .proceed(let request) = policy.decide(FlipLink(checked)),
            let code = try? await codes.authorizationCode(for: request.authorizationRequest)
        else { return LiveAnswer(continue: false) }
        return open([last + "?" + FlipResult.code(code, state: request.state).query])
    }

    /// The seed's sample: `client_id`, `state` and `redirect_uri` present and the client id right, then a
    /// code appended to whatever redirect_uri came, with the state as received.
    private static func googleSample(_ link: FlipLink, codes: AuthorizationEndpoint) async -> LiveAnswer {
        guard let clientID = link.clientID, let state = link.state, let redirectURI = link.redirectURI, clientID == TestPartner.clientID,
            let code = try? await codes.authorizationCode(
                for: AuthorizationRequest(clientID: clientID, redirectURI: AppFlipRedirectURI.all[0].string, scopes: ["profile"])
            )
        else { return LiveAnswer(continue: false) }
        return open([redirectURI + "?code=" + code + "&state=" + state])
    }
}
