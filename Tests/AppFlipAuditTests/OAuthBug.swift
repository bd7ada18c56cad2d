import AppFlipAudit
import AppFlipGoogle

/// The one bug a ``BrokenOAuthServer`` has, and the check that must catch it. `nil` bug: the server conforms.
enum OAuthBug: String, CaseIterable, Sendable {
    // The authorization endpoint and its preconditions.
    case authorizeLowerCasesHost, authorizePrefixMatch, authorizeChecksFirstRedirectURI, authorizeAnyClient, authorizeClientAnyCase
    case authorizeStateUnencoded
    case signInRefused, authorizeDown, requiresPKCE
    // The token endpoint.
    case reusableCode, replayKeepsTokens, unboundRedirect, ignoresSecret, acceptsMissingSecret, acceptsUnknownClient, noBasic, basicOnly
    case textPlainTokens, noCacheControl, macTokenType, jwtAccessToken, expiresInString, noRefreshToken
    case sameAccessOnRefresh, strictRotation, retiresWithoutSuccessor, bogusRefreshInvalidRequest, errorsAsHTML, descriptionField
    case noBasicChallenge, resourceRefuses, resourceForbidden, resourceNoErrorCode, revokeKeepsRefresh, revokeUnknownRefused

    /// The check that must fail (or warn, for a SHOULD, or could not run, for a precondition) and nothing else.
    var caughtBy: (check: String, outcome: String) {
        switch self {
        case .authorizeLowerCasesHost, .authorizePrefixMatch, .authorizeChecksFirstRedirectURI: ("authorize.lookalike-redirect", "fail")
        case .authorizeAnyClient, .authorizeClientAnyCase: ("authorize.unknown-client", "fail")
        case .authorizeStateUnencoded: ("authorize.state", "fail")
        case .signInRefused, .authorizeDown: ("authorize.sign-in", "could-not-run")
        case .requiresPKCE: ("authorize.code", "fail")
        case .reusableCode: ("token.code-single-use", "fail")
        case .replayKeepsTokens: ("token.code-single-use", "warning")
        case .unboundRedirect: ("token.code-redirect-binding", "fail")
        case .ignoresSecret, .acceptsMissingSecret: ("token.wrong-secret", "fail")
        case .acceptsUnknownClient: ("token.unknown-client", "fail")
        case .noBasic, .basicOnly: ("token.client-auth", "fail")
        case .textPlainTokens: ("token.json", "fail")
        case .noCacheControl: ("token.no-store", "fail")
        case .macTokenType: ("token.bearer", "fail")
        case .jwtAccessToken: ("token.opaque", "fail")
        case .expiresInString: ("token.expires-in", "fail")
        case .noRefreshToken: ("token.refresh-issued", "fail")
        case .sameAccessOnRefresh: ("token.refresh", "fail")
        case .strictRotation: ("token.refresh-rotation", "fail")
        case .retiresWithoutSuccessor: ("token.refresh-chain", "fail")
        case .bogusRefreshInvalidRequest: ("token.invalid-refresh", "fail")
        case .errorsAsHTML: ("token.error-format", "fail")
        case .descriptionField: ("token.error-fields", "warning")
        case .noBasicChallenge: ("token.www-authenticate", "fail")
        case .resourceRefuses: ("token.resource", "fail")
        case .resourceForbidden: ("token.resource-refusal", "fail")
        case .resourceNoErrorCode: ("token.resource-refusal", "warning")
        case .revokeKeepsRefresh: ("token.revoke", "fail")
        case .revokeUnknownRefused: ("token.revoke-unknown", "fail")
        }
    }

    /// How the partner configured Google's client: `noBasic` is audited as a partner that chose Basic, so
    /// that refusing it is the failure; every other bug with Google's default.
    var clientAuth: ClientAuthMethod { self == .noBasic ? .basic : .post }

    /// The exit status the finding makes: 2 for a rule, 1 for a precondition outside the rules, 0 for a warning.
    var exitStatus: Int32 {
        switch caughtBy.outcome {
        case "fail": 2
        case "could-not-run": 1
        default: 0
        }
    }
}
