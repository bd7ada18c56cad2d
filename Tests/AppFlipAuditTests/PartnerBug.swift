/// The one bug a ``LivePartner`` has, and what the audit must report for it (`id: outcome`, in catalogue
/// order). `nil` bug: the partner conforms.
enum PartnerBug: String, CaseIterable, Sendable {
    case acceptsAnyClientID, clientIDAnyCase, prefixRedirect, stateUnencodedWithCode, notUniversalLinksOnly, extraParameter, productionRedirectsOnly
    case opensTwice, extraPathSegment, declinesInvalidRequest, userNotAuthorized
    /// Checks the first `redirect_uri` and opens the result on the last (HTTP parameter pollution).
    case checksFirstRedirectURI
    /// Percent-decodes the client_id once more before comparing it: one mutation of the family gets through.
    case clientIDDecodedTwice
    /// Its authorization endpoint is down: every valid flip is answered `error=cancelled`, as it should be.
    case authorizationDown
    /// Google's iOS sample: checks client_id only, declines a link without state, never looks at scope or
    /// the redirect_uri, and pastes the state into the result unencoded.
    case googleSample
    /// Asks its authorization server for every scope it knows, whatever the link's `scope` says.
    case asksForEveryScope
    /// Keeps only the first of the link's space-separated scopes.
    case keepsFirstScope
    /// Not a bug: refuses (`invalid_request`) a link that asks for only a part of its scopes, which Google never
    /// sends.
    case refusesPartOfTheScopes
    /// Pattern 1 of issue 37, each a rule broken, never "could not run": declines a valid link; answers it by
    /// opening nothing; refuses the scope list as Google writes it (space-separated) but takes one scope;
    /// returns the code twice in the result.
    case declinesValidFlip, opensNothing, refusesScopeList, repeatsCode

    var findings: [String] {
        switch self {
        case .acceptsAnyClientID, .clientIDAnyCase, .clientIDDecodedTwice: ["partner.wrong-client-id: fail"]
        case .prefixRedirect, .checksFirstRedirectURI: ["partner.lookalike-redirect: fail"]
        case .stateUnencodedWithCode: ["partner.result-shape: fail", "partner.state-success: fail"]
        case .notUniversalLinksOnly, .opensTwice, .extraPathSegment: ["partner.result-shape: fail"]
        // Not a bug after all: the Google app ignores a parameter it does not know (RFC 6749 §4.1.2).
        case .extraParameter: []
        case .productionRedirectsOnly: ["partner.redirect-uris: fail"]
        // No rule is broken: the precondition says why no code came, and what needs one is skipped.
        case .authorizationDown: ["partner.code: could-not-run"]
        // The seed's sample declines instead of invalid_request: a warning, and the error path's states cannot come back.
        case .declinesInvalidRequest: ["partner.state-error: warning", "partner.invalid-request: warning"]
        // An error value outside App Flip's three, where invalid_request is due.
        case .userNotAuthorized: ["partner.invalid-request: fail", "partner.error-values: fail"]
        // `partner.scope` exchanges the app's codes: without the token endpoint it is skipped, so these
        // bugs show only in `PartnerScopeTests`.
        case .asksForEveryScope, .keepsFirstScope, .refusesPartOfTheScopes: []
        case .declinesValidFlip, .opensNothing, .refusesScopeList: ["partner.code: fail"]
        // The result breaks its shape; partner.code, which has no usable code, is skipped naming it.
        case .repeatsCode: ["partner.result-shape: fail"]
        case .googleSample:
            [
                "partner.result-shape: fail", "partner.state-success: fail", "partner.state-error: fail", "partner.lookalike-redirect: fail",
                "partner.invalid-request: fail",
            ]
        }
    }
}
