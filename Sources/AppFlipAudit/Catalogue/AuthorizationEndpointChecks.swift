public import AppFlipCore

extension CheckSpec {
    /// `authorize.sign-in`.
    public static let authorizeSignIn = CheckSpec(
        id: "authorize.sign-in",
        target: .authorizationEndpoint,
        title: "the sign-in credential is accepted (precondition)",
        rule:
            "Precondition: a valid request with the sign-in credential ends at its redirect_uri (after the server's own redirects, or by a page that forwards to it), not at a login page, 401, 403 or an error page.",
        source: AuditSource.precondition,
        level: .must,
        requires: [.authorizationEndpoint],
        establishes: .signIn
    )
    /// `authorize.code`.
    public static let authorizeCode = CheckSpec(
        id: "authorize.code",
        target: .authorizationEndpoint,
        title: "a request as Google sends it gets a new code",
        rule:
            "A valid request as Google sends it, without code_challenge and with its scopes space-separated, gets a code in its redirect, a new one for each request, and so does it with its parameters reordered or an unrecognised one added (which a server MUST ignore): the server must not require PKCE for Google's client, nor refuse the scope list as Google writes it.",
        source:
            "\(AuditSource.seed), step 1 (the flip link's parameters); \(AuditSource.googleOAuth); \(AuditSource.rfc(6749, "3.1")), §3.3, §4.1.2, §10.5",
        level: .must,
        requires: [.authorizationEndpoint, .signIn],
        establishes: .authorizationCode
    )
    /// `authorize.redirect-uris`.
    public static let authorizeRedirectURIs = CheckSpec(
        id: "authorize.redirect-uris",
        target: .authorizationEndpoint,
        title: "all 12 redirect URIs are accepted",
        rule: "Each of the 12 redirect URIs, registered for the client, gets a redirect to it carrying a code and the state.",
        source: "\(AuditSource.seed), \"Modify your authorization endpoint\"; \(AuditSource.rfc(6749, "4.1.2"))",
        level: .must,
        requires: [.authorizationEndpoint, .signIn, .authorizationCode]
    )
    /// `authorize.lookalike-redirect`.
    public static let authorizeLookalikeRedirect = CheckSpec(
        id: "authorize.lookalike-redirect",
        target: .authorizationEndpoint,
        title: "a lookalike redirect_uri is never redirected to",
        rule:
            "A redirect_uri that is not exactly a registered one (every mutation of docs/audit.md's redirect URI families) is never redirected to (the server's own error or sign-in page is fine); sent twice beside the registered one, in either order, no redirect may go to the lookalike.",
        source: "\(AuditSource.rfc(6749, "3.1")), §4.1.2.1; \(AuditSource.rfc(9700, "2.1")), §4.1",
        level: .must,
        requires: [.authorizationEndpoint, .signIn]
    )
    /// `authorize.unknown-client`.
    public static let authorizeUnknownClient = CheckSpec(
        id: "authorize.unknown-client",
        target: .authorizationEndpoint,
        title: "unknown client_ids are not redirected to the redirect_uri",
        rule:
            "An unknown client_id (every mutation of Google's in docs/audit.md's client id families, empty or missing) is never redirected to the redirect_uri (the server's own error or sign-in page is fine).",
        source: AuditSource.rfc(6749, "4.1.2.1"),
        level: .must,
        requires: [.authorizationEndpoint, .signIn]
    )
    /// `authorize.state`.
    public static let authorizeState = CheckSpec(
        id: "authorize.state",
        target: .authorizationEndpoint,
        title: "hostile states come back byte for byte",
        rule:
            "The state comes back byte for byte in the redirect, whatever it holds (docs/audit.md's state family); a state past a length limit may be refused, never cut or changed.",
        source: AuditSource.rfc(6749, "4.1.2"),
        level: .must,
        requires: [.authorizationEndpoint, .signIn, .authorizationCode]
    )
    /// `authorize.redirect-shape`.
    public static let authorizeRedirectShape = CheckSpec(
        id: "authorize.redirect-shape",
        target: .authorizationEndpoint,
        title: "every redirect carries its response once, in the query",
        rule:
            "Every redirect to the redirect_uri carries the response in the query, each of RFC 6749's parameters once, with a code or a registered error value; no response travels in a fragment or a posted form, and no Location carries a code or token in its fragment.",
        source: "\(AuditSource.rfc(6749, "3.1")), §4.1.2, §4.1.2.1",
        level: .must,
        requires: [.authorizationEndpoint, .signIn, .redirect]
    )
    /// `authorize.https`.
    public static let authorizeHTTPS = CheckSpec(
        id: "authorize.https",
        target: .authorizationEndpoint,
        title: "the authorization endpoint is served over HTTPS",
        rule: "The authorization endpoint is served over HTTPS; one on the loopback interface, which Google cannot call, is not judged.",
        source: "\(AuditSource.googleAPIReference); \(AuditSource.rfc(6749, "3.1"))",
        level: .must,
        requires: [.authorizationEndpoint, .publicEndpoint]
    )
}

extension AuditCatalogue {
    /// The authorization endpoint's checks, in report order.
    static let authorizationEndpoint: [CheckSpec] = [
        .authorizeSignIn, .authorizeCode, .authorizeRedirectURIs, .authorizeLookalikeRedirect, .authorizeUnknownClient, .authorizeState,
        .authorizeRedirectShape, .authorizeHTTPS,
    ]
}
