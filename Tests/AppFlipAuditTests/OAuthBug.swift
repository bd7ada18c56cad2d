/// The one bug a ``BrokenOAuthServer`` has, and the check that must catch it. `nil` bug: the server conforms.
enum OAuthBug: String, CaseIterable, Sendable {
    // The authorization endpoint.
    case authorizeLowerCasesHost, authorizePrefixMatch, authorizeAnyClient, authorizeStateUnencoded
    // The token endpoint.
    case reusableCode, replayKeepsTokens, unboundRedirect, ignoresSecret, acceptsUnknownClient, noBasic
    case textPlainTokens, noCacheControl, macTokenType, jwtAccessToken, expiresInString, noRefreshToken
    case sameAccessOnRefresh, strictRotation, bogusRefreshInvalidRequest, errorsAsHTML, resourceRefuses

    /// The check that must fail (or warn, for a SHOULD) and nothing else.
    var caughtBy: (check: String, outcome: String) {
        switch self {
        case .authorizeLowerCasesHost, .authorizePrefixMatch: ("authorize.lookalike-redirect", "fail")
        case .authorizeAnyClient: ("authorize.unknown-client", "fail")
        case .authorizeStateUnencoded: ("authorize.state", "fail")
        case .reusableCode: ("token.code-single-use", "fail")
        case .replayKeepsTokens: ("token.code-single-use", "warning")
        case .unboundRedirect: ("token.code-redirect-binding", "fail")
        case .ignoresSecret: ("token.wrong-secret", "fail")
        case .acceptsUnknownClient: ("token.unknown-client", "fail")
        case .noBasic: ("token.exchange-basic", "fail")
        case .textPlainTokens: ("token.json", "fail")
        case .noCacheControl: ("token.no-store", "warning")
        case .macTokenType: ("token.bearer", "fail")
        case .jwtAccessToken: ("token.opaque", "fail")
        case .expiresInString: ("token.expires-in", "fail")
        case .noRefreshToken: ("token.refresh-issued", "fail")
        case .sameAccessOnRefresh: ("token.refresh", "fail")
        case .strictRotation: ("token.refresh-rotation", "fail")
        case .bogusRefreshInvalidRequest: ("token.invalid-refresh", "fail")
        case .errorsAsHTML: ("token.error-format", "fail")
        case .resourceRefuses: ("token.resource", "fail")
        }
    }
}
