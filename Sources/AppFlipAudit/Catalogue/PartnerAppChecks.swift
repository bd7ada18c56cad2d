public import AppFlipCore

extension CheckSpec {
    /// `partner.route`.
    public static let partnerRoute = CheckSpec(
        id: "partner.route",
        target: .partnerApp,
        title: "the flip link routes to the app",
        rule: "The flip link must open the partner app as a universal link, by one of its associated domains' AASA rules.",
        source: "\(AuditSource.seed), step 1; \(AuditSource.appleAASA)",
        level: .must,
        requires: [.partnerApp],
        establishes: .appRoute
    )
    /// `partner.code`.
    public static let partnerCode = CheckSpec(
        id: "partner.code",
        target: .partnerApp,
        title: "a valid flip link yields a new code",
        rule:
            "A valid flip link, as Google sends it (its scopes space-separated), is answered on its redirect_uri with a code, a new one for each link, or with cancelled or unrecoverable when the user cannot link (then the audit could not run): declining it, opening nothing or answering invalid_request breaks the flow; the same link with its parameters reordered or an unrecognised one added (which RFC 6749 §3.1 says to ignore) gets a code too.",
        source: "\(AuditSource.seed), \"How it works\" step 3, steps 5 and 6; \(AuditSource.rfc(6749, "3.1")), §4.1.2, §10.5",
        level: .must,
        requires: [.partnerApp, .appRoute],
        establishes: .appCode
    )
    /// `partner.redirect-uris`.
    public static let partnerRedirectURIs = CheckSpec(
        id: "partner.redirect-uris",
        target: .partnerApp,
        title: "all 12 App Flip redirect URIs get a code",
        rule: "Each of the 12 App Flip redirect URIs (Home and Assistant, production, dev and enterprise, both hosts) must get a code.",
        source: "\(AuditSource.seed), \"Modify your authorization endpoint\"",
        level: .must,
        requires: [.partnerApp, .appRoute, .appCode]
    )
    /// `partner.result-shape`.
    public static let partnerResultShape = CheckSpec(
        id: "partner.result-shape",
        target: .partnerApp,
        title: "one result URL, universal-links-only, on the exact redirect_uri",
        rule:
            "The app opens exactly one URL, universal-links-only, whose text before ? is the redirect_uri exactly, with code and state, or error (and error_description) and state, each once; another parameter is no fault, since the Google app ignores what it does not know (RFC 6749 §4.1.2).",
        source: "\(AuditSource.seed), steps 5 and 6; \(AuditSource.rfc(6749, "4.1.2"))",
        level: .must,
        requires: [.partnerApp, .appRoute, .appResult]
    )
    /// `partner.state-success`.
    public static let partnerStateSuccess = CheckSpec(
        id: "partner.state-success",
        target: .partnerApp,
        title: "hostile states come back byte for byte with a code",
        rule:
            "state comes back byte for byte with the code, whatever it holds (docs/audit.md's state family, encoded on the way back); a state past a length limit may be refused, never cut or changed.",
        source: "\(AuditSource.seed), step 5; \(AuditSource.rfc(6749, "4.1.2")); \(AuditSource.rfc(3986, "2.1"))",
        level: .must,
        requires: [.partnerApp, .appRoute, .appCode]
    )
    /// `partner.state-error`.
    public static let partnerStateError = CheckSpec(
        id: "partner.state-error",
        target: .partnerApp,
        title: "hostile states come back byte for byte with an error",
        rule: "state comes back byte for byte with an error result too; a state past a length limit may be refused, never cut or changed.",
        source: "\(AuditSource.seed), step 6; \(AuditSource.rfc(6749, "4.1.2.1"))",
        level: .must,
        requires: [.partnerApp, .appRoute]
    )
    /// `partner.wrong-client-id`.
    public static let partnerWrongClientID = CheckSpec(
        id: "partner.wrong-client-id",
        target: .partnerApp,
        title: "wrong client_ids are declined, nothing opened",
        rule:
            "A client_id that is not Google's (every mutation of Google's in docs/audit.md's client id families, empty or missing) must be declined: no result URL opened.",
        source: "\(AuditSource.seed), step 4; \(AuditSource.rfc(6749, "4.1.2.1"))",
        level: .must,
        requires: [.partnerApp, .appRoute]
    )
    /// `partner.lookalike-redirect`.
    public static let partnerLookalikeRedirect = CheckSpec(
        id: "partner.lookalike-redirect",
        target: .partnerApp,
        title: "a lookalike redirect_uri is declined, nothing opened",
        rule:
            "A redirect_uri that is not exactly one of the 12 (every mutation of docs/audit.md's redirect URI families) must be declined with nothing opened, never redirected to; sent twice beside the real one, in either order, nothing may reach the lookalike.",
        source: "\(AuditSource.seed), step 3; \(AuditSource.rfc(6749, "3.1")), §4.1.2.1; \(AuditSource.rfc(9700, "2.1"))",
        level: .must,
        requires: [.partnerApp, .appRoute]
    )
    /// `partner.invalid-request`.
    public static let partnerInvalidRequest = CheckSpec(
        id: "partner.invalid-request",
        target: .partnerApp,
        title: "missing, empty or repeated state or scope get invalid_request",
        rule:
            "A missing, empty or repeated state or scope gets error=invalid_request on the valid redirect_uri (a decline, as the seed's sample does, or a code for a missing scope, RFC 6749 §3.3's default, is a warning).",
        source: "\(AuditSource.seed), invalid_request; \(AuditSource.rfc(6749, "4.1.2.1")); docs/app-flip.md rows E11–E17",
        level: .must,
        requires: [.partnerApp, .appRoute]
    )
    /// `partner.error-values`.
    public static let partnerErrorValues = CheckSpec(
        id: "partner.error-values",
        target: .partnerApp,
        title: "errors use only App Flip's three values",
        rule: "An error result uses only cancelled, unrecoverable or invalid_request, with error_description percent-encoded.",
        source: "\(AuditSource.seed), \"returned unsuccessfully\"; \(AuditSource.rfc(6749, "4.1.2.1"))",
        level: .must,
        requires: [.partnerApp, .appRoute, .appErrorResult]
    )
    /// `partner.scope`.
    public static let partnerScope = CheckSpec(
        id: "partner.scope",
        target: .partnerApp,
        title: "the scopes asked reach the code",
        rule:
            "The flip link's scope, a space-separated list, reaches the code: asked for the first scope alone and for all of them, the code's tokens carry what was asked, or what the authorization endpoint's own code for it carries (a server may grant other scopes, RFC 6749 §3.3).",
        source: "\(AuditSource.seed), scope (\"a list of space-separated scopes requested\"); \(AuditSource.rfc(6749, "3.3")), §5.1",
        level: .must,
        requires: [.partnerApp, .appRoute, .scopes, .appCode, .tokenEndpoint, .workingClientAuth, .tokens, .tokenScope]
    )
}

extension AuditCatalogue {
    /// The partner app's checks, through appflipd, in report order.
    static let partnerApp: [CheckSpec] = [
        .partnerRoute, .partnerCode, .partnerRedirectURIs, .partnerResultShape, .partnerStateSuccess, .partnerStateError, .partnerWrongClientID,
        .partnerLookalikeRedirect, .partnerInvalidRequest, .partnerErrorValues, .partnerScope,
    ]
}
