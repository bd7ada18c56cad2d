public import AppFlipCore

extension CheckSpec {
    /// `token.https`.
    public static let tokenHTTPS = CheckSpec(
        id: "token.https",
        target: .tokenEndpoint,
        title: "the token, revocation and resource endpoints are served over HTTPS",
        rule:
            "The token endpoint, the revocation endpoint and the resource are served over HTTPS; one on the loopback interface, which Google cannot call, is not judged.",
        source: "\(AuditSource.googleAPIReference); \(AuditSource.rfc(6749, "3.2"))",
        level: .must,
        requires: [.tokenEndpoint, .publicEndpoint]
    )
    /// `token.client-auth`.
    public static let tokenClientAuth = CheckSpec(
        id: "token.client-auth",
        target: .tokenEndpoint,
        title: "the client authentication Google uses is accepted",
        rule:
            "The token endpoint accepts the client authentication Google sends: client_secret_post, or HTTP Basic when the partner configured it (--client-auth).",
        source: "\(AuditSource.googleOAuth); \(AuditSource.rfc(6749, "2.3.1"))",
        level: .must,
        requires: [.tokenEndpoint, .code],
        establishes: .workingClientAuth
    )
    /// `token.exchange`.
    public static let tokenExchange = CheckSpec(
        id: "token.exchange",
        target: .tokenEndpoint,
        title: "the code is exchanged",
        rule: "A valid code with the identical redirect_uri and the client's credentials gets tokens.",
        source: "\(AuditSource.rfc(6749, "4.1.3")); \(AuditSource.validationTool)",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth],
        establishes: .tokens
    )
    /// `token.json`.
    public static let tokenJSON = CheckSpec(
        id: "token.json",
        target: .tokenEndpoint,
        title: "the token response is JSON",
        rule: "Every token response, of an exchange or a refresh, is HTTP 200 with an application/json body.",
        source: "\(AuditSource.rfc(6749, "5.1")), §6",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens]
    )
    /// `token.no-store`.
    public static let tokenNoStore = CheckSpec(
        id: "token.no-store",
        target: .tokenEndpoint,
        title: "token responses say Cache-Control: no-store",
        rule: "Every response holding tokens, of an exchange or a refresh, carries Cache-Control: no-store.",
        source: "\(AuditSource.rfc(6749, "5.1")), §6",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens]
    )
    /// `token.bearer`.
    public static let tokenBearer = CheckSpec(
        id: "token.bearer",
        target: .tokenEndpoint,
        title: "token_type is Bearer",
        rule: "token_type is Bearer, in any case, in every token response.",
        source: "\(AuditSource.rfc(6749, "5.1")), §6, §7.1; \(AuditSource.validationTool)",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens]
    )
    /// `token.opaque`.
    public static let tokenOpaque = CheckSpec(
        id: "token.opaque",
        target: .tokenEndpoint,
        title: "the access token is opaque, not a JWT",
        rule: "Every access token, of an exchange or a refresh, is an opaque string, not a JWT.",
        source: AuditSource.validationTool,
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens]
    )
    /// `token.expires-in`.
    public static let tokenExpiresIn = CheckSpec(
        id: "token.expires-in",
        target: .tokenEndpoint,
        title: "expires_in is a positive integer",
        rule:
            "expires_in, in every token response, is a positive integer number of seconds; a response without it breaks RFC 6749 §5.1's RECOMMENDED, a warning.",
        source: "\(AuditSource.rfc(6749, "5.1")), §6; \(AuditSource.validationTool)",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens]
    )
    /// `token.refresh-issued`.
    public static let tokenRefreshIssued = CheckSpec(
        id: "token.refresh-issued",
        target: .tokenEndpoint,
        title: "a refresh token is issued",
        rule: "Every code exchange that issues an expiring access token issues a refresh token with it.",
        source: AuditSource.validationTool,
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens],
        establishes: .refreshToken
    )
    /// `token.code-single-use`.
    public static let tokenCodeSingleUse = CheckSpec(
        id: "token.code-single-use",
        target: .tokenEndpoint,
        title: "a code is single-use",
        rule:
            "A code used twice, one exchange after the other or two at once, gets tokens at most once, the replay invalid_grant; the tokens issued from it, shown working just before, SHOULD be revoked (a warning if they still work).",
        source: "\(AuditSource.rfc(6749, "4.1.2")), §10.5",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens]
    )
    /// `token.code-redirect-binding`.
    public static let tokenCodeRedirectBinding = CheckSpec(
        id: "token.code-redirect-binding",
        target: .tokenEndpoint,
        title: "a code is bound to its redirect_uri",
        rule:
            "A code presented with another of the 12 redirect URIs than its own gets invalid_grant; with a mutation of its own (each family of docs/audit.md's redirect URI mutations, registered for no client) invalid_grant or invalid_request; without redirect_uri it gets no tokens.",
        source: AuditSource.rfc(6749, "4.1.3"),
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens]
    )
    /// `token.wrong-secret`.
    public static let tokenWrongSecret = CheckSpec(
        id: "token.wrong-secret",
        target: .tokenEndpoint,
        title: "a wrong client secret gets invalid_client",
        rule:
            "A wrong, empty or missing client secret, by every method the server accepts, gets invalid_client at every endpoint that authenticates the client: the code grant, the refresh grant and revocation (which revokes nothing then).",
        source: "\(AuditSource.rfc(6749, "2.3.1")), §5.2, §6; \(AuditSource.rfc(7009, "2.1"))",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth]
    )
    /// `token.unknown-client`.
    public static let tokenUnknownClient = CheckSpec(
        id: "token.unknown-client",
        target: .tokenEndpoint,
        title: "an unknown client gets invalid_client",
        rule:
            "An unknown client_id (Google's with a character appended, cut short, or with a NUL and more appended), by every method the server accepts, gets invalid_client at the code grant, the refresh grant and revocation.",
        source: "\(AuditSource.rfc(6749, "5.2")), §6; \(AuditSource.rfc(7009, "2.1"))",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth]
    )
    /// `token.refresh`.
    public static let tokenRefresh = CheckSpec(
        id: "token.refresh",
        target: .tokenEndpoint,
        title: "a refresh returns a new access token",
        rule: "A refresh returns a new access token; a new refresh token is optional.",
        source: "\(AuditSource.rfc(6749, "6")); \(AuditSource.validationTool)",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens, .refreshToken],
        establishes: .refresh
    )
    /// `token.refresh-chain`.
    public static let tokenRefreshChain = CheckSpec(
        id: "token.refresh-chain",
        target: .tokenEndpoint,
        title: "refreshes in a row keep working",
        rule:
            "Refreshes in a row (--refresh-chain, 5 by default), each with the refresh token the previous answer gave (or the one presented), each get a new access token that opens the resource.",
        source: "\(AuditSource.rfc(6749, "6")); \(AuditSource.googleRefreshExchange); \(AuditSource.googleUnlinking)",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens, .refreshToken, .refresh]
    )
    /// `token.refresh-rotation`.
    public static let tokenRefreshRotation = CheckSpec(
        id: "token.refresh-rotation",
        target: .tokenEndpoint,
        title: "a rotated-out refresh token works until its successor is used",
        rule:
            "When refresh tokens rotate, the previous one still works until the new one has been used: presented again at once and after a delay (--rotation-grace, 2 s by default), as Google retries a refresh whose answer was lost.",
        source: "Google, Unlinking accounts (developers.google.com/identity/account-linking/unlinking); \(AuditSource.validationTool)",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens, .refreshToken, .refresh, .rotation]
    )
    /// `token.invalid-refresh`.
    public static let tokenInvalidRefresh = CheckSpec(
        id: "token.invalid-refresh",
        target: .tokenEndpoint,
        title: "a bogus refresh token gets HTTP 400 invalid_grant",
        rule:
            "A refresh token the server never issued (made up, an access token, a real one mutated: in another case, cut short by a character at either end, cut to its first half) gets HTTP 400 with error=invalid_grant.",
        source: "\(AuditSource.rfc(6749, "5.2")); \(AuditSource.validationTool)",
        level: .must,
        requires: [.tokenEndpoint, .refreshGrant]
    )
    /// `token.error-format`.
    public static let tokenErrorFormat = CheckSpec(
        id: "token.error-format",
        target: .tokenEndpoint,
        title: "errors are JSON with error, HTTP 400 or 401",
        rule:
            "Every error of the token and revocation endpoints, whichever check met it, is a JSON object with error, on HTTP 400 or 401: not HTML, not 200 (a revocation endpoint's 503, temporarily unavailable, excepted).",
        source: "\(AuditSource.rfc(6749, "5.2")); \(AuditSource.rfc(7009, "2.2.1"))",
        level: .must,
        requires: [.tokenEndpoint, .errorAnswer]
    )
    /// `token.error-fields`.
    public static let tokenErrorFields = CheckSpec(
        id: "token.error-fields",
        target: .tokenEndpoint,
        title: "error values are the registered ones, the description is error_description",
        rule:
            "error is one of RFC 6749 §5.2's values or those registered for the token endpoint (unsupported_token_type at revocation); a description under another name than error_description is a warning: the member is optional (§5.2) and clients ignore members they do not know (§5.1).",
        source: "\(AuditSource.rfc(6749, "5.1")), §5.2; \(AuditSource.rfc(7009, "2.2.1"))",
        level: .must,
        requires: [.tokenEndpoint, .errorObject]
    )
    /// `token.www-authenticate`.
    public static let tokenWWWAuthenticate = CheckSpec(
        id: "token.www-authenticate",
        target: .tokenEndpoint,
        title: "every 401 challenges, naming Basic for HTTP Basic",
        rule:
            "Every HTTP 401 of the token and revocation endpoints carries WWW-Authenticate with well-formed challenges, and so does every one the resource sends (RFC 6750 §3 for Bearer); a client that authenticated with HTTP Basic and failed gets HTTP 401 with a challenge naming Basic.",
        source: "\(AuditSource.rfc(6749, "5.2")); \(AuditSource.rfc(9110, "11.2")), §11.6.1, §15.5.2; \(AuditSource.rfc(6750, "3"))",
        level: .must,
        requires: [.tokenEndpoint, .unauthorizedAnswer]
    )
    /// `token.resource`.
    public static let tokenResource = CheckSpec(
        id: "token.resource",
        target: .tokenEndpoint,
        title: "the access token opens the resource",
        rule: "The access token opens the resource it was issued for (Authorization: Bearer).",
        source: AuditSource.rfc(6750, "2.1"),
        level: .must,
        requires: [.tokenEndpoint, .resource, .code, .workingClientAuth, .tokens]
    )
    /// `token.resource-refusal`.
    public static let tokenResourceRefusal = CheckSpec(
        id: "token.resource-refusal",
        target: .tokenEndpoint,
        title: "the resource refuses missing, bogus and revoked tokens with a Bearer challenge",
        rule:
            "The resource answers no token, a token it never issued (made up, or a real one mutated) and a revoked token with WWW-Authenticate: Bearer, never opening (SHOULD, else a warning: HTTP 401, error=\"invalid_token\" for a token, no error code without one).",
        source: "\(AuditSource.rfc(6750, "3")), §3.1",
        level: .must,
        requires: [.tokenEndpoint, .resource]
    )
    /// `token.revoke`.
    public static let tokenRevoke = CheckSpec(
        id: "token.revoke",
        target: .tokenEndpoint,
        title: "a revoked refresh token and its access tokens die, whatever the hint",
        rule:
            "A refresh token revoked with token_type_hint refresh_token, with access_token (a wrong hint: the server searches on) and with none no longer refreshes; its access tokens, and an access token revoked with either hint or none, SHOULD stop opening the resource (a warning if they still do).",
        source: "\(AuditSource.rfc(7009, "2.1")); \(AuditSource.googleUnlinking)",
        level: .must,
        requires: [.tokenEndpoint, .revocationEndpoint, .code, .workingClientAuth, .tokens, .refreshToken]
    )
    /// `token.revoke-unknown`.
    public static let tokenRevokeUnknown = CheckSpec(
        id: "token.revoke-unknown",
        target: .tokenEndpoint,
        title: "revoking an unknown token answers 200",
        rule: "Revoking a token the server never issued answers HTTP 200.",
        source: AuditSource.rfc(7009, "2.2"),
        level: .must,
        requires: [.tokenEndpoint, .revocationEndpoint]
    )
    /// `token.code-expiry`.
    public static let tokenCodeExpiry = CheckSpec(
        id: "token.code-expiry",
        target: .tokenEndpoint,
        title: "a code older than 10 minutes is refused",
        rule:
            "A code is refused once it is older than 10 minutes, the maximum lifetime RFC 6749 recommends: a code taken later is a warning (a code MUST expire shortly, how shortly is a SHOULD).",
        source: AuditSource.rfc(6749, "4.1.2"),
        level: .should,
        requires: [.tokenEndpoint, .slow, .code, .workingClientAuth, .tokens]
    )
    /// `token.invalid-code`.
    public static let tokenInvalidCode = CheckSpec(
        id: "token.invalid-code",
        target: .tokenEndpoint,
        title: "a mutated code gets invalid_grant",
        rule:
            "A code the server never issued, a real one mutated (in another case, cut short by a character at either end, cut to its first half: what a comparison without case or by a prefix takes for it), gets no tokens: HTTP 400 invalid_grant (or invalid_request, for a value the server reads as malformed).",
        source: "\(AuditSource.rfc(6749, "4.1.3")), §5.2, §10.10",
        level: .must,
        requires: [.tokenEndpoint, .code, .workingClientAuth, .tokens]
    )
    /// `token.code-client-binding`.
    public static let tokenCodeClientBinding = CheckSpec(
        id: "token.code-client-binding",
        target: .tokenEndpoint,
        title: "a code is refused to another client",
        rule:
            "Google's code presented by a second client registered at the partner, with its own valid credentials, gets HTTP 400 invalid_grant (issued to another client); the second client's credentials refused is the audit's input (could not run).",
        source: "\(AuditSource.rfc(6749, "4.1.3")), §5.2, §10.5",
        level: .must,
        requires: [.tokenEndpoint, .secondClient, .code, .workingClientAuth, .tokens],
        establishes: .secondClientAuth
    )
    /// `token.refresh-client-binding`.
    public static let tokenRefreshClientBinding = CheckSpec(
        id: "token.refresh-client-binding",
        target: .tokenEndpoint,
        title: "a refresh token is refused to another client",
        rule:
            "Google's refresh token presented by the second client gets HTTP 400 invalid_grant; revoked by the second client (with --revoke-url), it keeps refreshing for Google's client.",
        source: "\(AuditSource.rfc(6749, "6")), §5.2, §10.4; \(AuditSource.rfc(7009, "2.1"))",
        level: .must,
        requires: [.tokenEndpoint, .secondClient, .code, .workingClientAuth, .tokens, .refreshToken, .refresh, .secondClientAuth]
    )
    /// `token.refresh-after-expiry`.
    public static let tokenRefreshAfterExpiry = CheckSpec(
        id: "token.refresh-after-expiry",
        target: .tokenEndpoint,
        title: "a refresh works once the access token has expired",
        rule:
            "Once the access token has expired (expires_in seconds after it was issued, waited for with --slow when it is at most 600), its refresh token gets a new access token: Google refreshes because the one it had expired.",
        source: "\(AuditSource.googleRefreshExchange); \(AuditSource.rfc(6749, "1.5")), §6",
        level: .must,
        requires: [.tokenEndpoint, .slow, .code, .workingClientAuth, .tokens, .refreshToken, .refresh]
    )
    /// `token.refresh-outlives-session`.
    public static let tokenRefreshOutlivesSession = CheckSpec(
        id: "token.refresh-outlives-session",
        target: .tokenEndpoint,
        title: "a refresh token outlives the user's sign-in session",
        rule:
            "A refresh token issued from a code of a signed-in session keeps refreshing once that session has ended (--sign-out-url): Google refreshes for as long as the account stays linked, and a session's end is no unlinking.",
        source: "\(AuditSource.googleRefreshExchange); \(AuditSource.googleUnlinkingEvents)",
        level: .must,
        requires: [
            .tokenEndpoint, .authorizationEndpoint, .sessionEnd, .signIn, .authorizationCode, .workingClientAuth, .tokens, .refreshToken, .refresh,
        ],
        establishes: .signedOut
    )
}

extension AuditCatalogue {
    /// The token endpoint's checks, in report order.
    static let tokenEndpoint: [CheckSpec] = [
        .tokenHTTPS, .tokenClientAuth, .tokenExchange, .tokenJSON, .tokenNoStore, .tokenBearer, .tokenOpaque, .tokenExpiresIn, .tokenRefreshIssued,
        .tokenCodeSingleUse, .tokenCodeRedirectBinding, .tokenInvalidCode, .tokenCodeClientBinding, .tokenWrongSecret, .tokenUnknownClient,
        .tokenRefresh, .tokenRefreshChain, .tokenRefreshRotation, .tokenRefreshClientBinding, .tokenRefreshAfterExpiry,
        .tokenRefreshOutlivesSession, .tokenInvalidRefresh, .tokenErrorFormat, .tokenErrorFields, .tokenWWWAuthenticate, .tokenResource,
        .tokenResourceRefusal, .tokenRevoke, .tokenRevokeUnknown, .tokenCodeExpiry,
    ]
}
