import AppFlipAudit
import AppFlipGoogle

/// The one bug a ``BrokenOAuthServer`` has, and the check that must catch it. `nil` bug: the server conforms.
enum OAuthBug: String, CaseIterable, Sendable {
    // The authorization endpoint and its preconditions.
    case authorizeLowerCasesHost, authorizePrefixMatch, authorizeChecksFirstRedirectURI, authorizeAnyClient, authorizeClientAnyCase
    case authorizeStateUnencoded
    case signInRefused, authorizeDown, requiresPKCE
    /// Pattern 1 of issue 37: answers to a valid request that break a rule, never "could not run".
    case codeInFragment, codePostedByPage, repeatsState, scopeListRefused, sameCode
    /// Every answer judged wherever it appears: a defect only in a fragment, a refresh answer, a revocation
    /// refusal, or a 401 the audit did not send on purpose.
    case tokenInFragment, refreshWithoutNoStore, revokeRefusedWithoutError, noChallengeForBody, malformedChallenge
    /// Not bugs: a redirect through the server's own page, and a page that forwards to the redirect_uri
    /// (RFC 6749 §1.7: any user-agent redirection). The browser gets there, and so does the audit.
    case intermediateRedirect, forwardingPage
    /// Not bugs: an unknown client or an unregistered redirect_uri sent to the server's own error page
    /// (RFC 6749 §4.1.2.1 forbids only redirecting to the redirect_uri).
    case refusalsToItsOwnErrorPage
    // The token endpoint.
    case reusableCode, replayKeepsTokens, unboundRedirect, ignoresSecret, acceptsMissingSecret, acceptsUnknownClient, noBasic, basicOnly
    case textPlainTokens, noCacheControl, macTokenType, jwtAccessToken, expiresInString, noRefreshToken, noExpiresIn
    case sameAccessOnRefresh, strictRotation, retiresWithoutSuccessor, bogusRefreshInvalidRequest, errorsAsHTML, descriptionField
    case noBasicChallenge, resourceRefuses, resourceForbidden, resourceNoErrorCode, revokeKeepsRefresh, revokeUnknownRefused
    /// Families, generated: each server lets one kind of mutation through, or one lifecycle step fail.
    /// NFKC folds a fullwidth client_id; any host under the registered one's parent domain; a state past
    /// 1024 bytes cut; a code found by a prefix one character short; a refresh token found in any case.
    case clientIDFolded, redirectAnyHostUnderParent, truncatesLongState, codePrefix, refreshAnyCase
    /// Two exchanges of one code at once both get tokens (a race between the check and the mark).
    case racyCode
    /// A wrong secret is ignored at the refresh grant, or at revocation; a refresh token is revoked only when
    /// hinted as one.
    case refreshIgnoresSecret, revokeIgnoresSecret, revokeNeedsHint
    /// The rotated-out refresh token works for a moment only; a grant refreshes four times and no more.
    case shortGrace, chainOfFour
    /// A second client: it may exchange Google's code, refresh Google's refresh token, revoke Google's grant.
    case codeAnyClient, refreshAnyClient, revokesOtherClientsTokens
    /// Refresh tokens die with the sign-in session that linked them; a sign-out that ends nothing.
    case sessionBoundRefresh, signOutIgnored
    /// A refresh token works only while the grant's newest access token has not expired: found with
    /// `--slow` only (``OAuthServerAuditTests/aRefreshMustWorkOnceTheAccessTokenExpired(bug:)``).
    case refreshNeedsLiveAccessToken

    /// The checks that must fail (or warn, for a SHOULD, or could not run, for a need the audit's own input
    /// could not establish), and nothing else, as `id: outcome`.
    var findings: [String] {
        switch self {
        case .authorizeLowerCasesHost, .authorizePrefixMatch, .authorizeChecksFirstRedirectURI: ["authorize.lookalike-redirect: fail"]
        case .authorizeAnyClient, .authorizeClientAnyCase: ["authorize.unknown-client: fail"]
        case .authorizeStateUnencoded: ["authorize.state: fail"]
        case .signInRefused, .authorizeDown: ["authorize.sign-in: could-not-run"]
        case .requiresPKCE, .scopeListRefused, .sameCode: ["authorize.code: fail"]
        case .codeInFragment, .codePostedByPage, .repeatsState, .tokenInFragment: ["authorize.redirect-shape: fail"]
        case .intermediateRedirect, .forwardingPage, .refusalsToItsOwnErrorPage: []
        case .refreshWithoutNoStore: ["token.no-store: fail"]
        case .revokeRefusedWithoutError: ["token.error-format: fail", "token.revoke: fail"]
        case .noChallengeForBody, .malformedChallenge, .noBasicChallenge: ["token.www-authenticate: fail"]
        case .reusableCode: ["token.code-single-use: fail"]
        case .replayKeepsTokens: ["token.code-single-use: warning"]
        case .unboundRedirect: ["token.code-redirect-binding: fail"]
        case .ignoresSecret, .acceptsMissingSecret: ["token.wrong-secret: fail"]
        case .acceptsUnknownClient: ["token.unknown-client: fail"]
        case .noBasic, .basicOnly: ["token.client-auth: fail"]
        case .textPlainTokens: ["token.json: fail"]
        case .noCacheControl: ["token.no-store: fail"]
        case .macTokenType: ["token.bearer: fail"]
        case .jwtAccessToken: ["token.opaque: fail"]
        case .expiresInString: ["token.expires-in: fail"]
        case .noExpiresIn: ["token.expires-in: warning"]
        case .noRefreshToken: ["token.refresh-issued: fail"]
        case .sameAccessOnRefresh: ["token.refresh: fail"]
        case .strictRotation: ["token.refresh-rotation: fail"]
        case .retiresWithoutSuccessor: ["token.refresh-chain: fail"]
        case .bogusRefreshInvalidRequest: ["token.invalid-refresh: fail"]
        case .errorsAsHTML: ["token.error-format: fail"]
        case .descriptionField: ["token.error-fields: warning"]
        case .resourceRefuses: ["token.resource: fail"]
        case .resourceForbidden: ["token.resource-refusal: fail"]
        case .resourceNoErrorCode: ["token.resource-refusal: warning"]
        case .revokeKeepsRefresh: ["token.revoke: fail"]
        case .revokeUnknownRefused: ["token.revoke-unknown: fail"]
        case .clientIDFolded: ["authorize.unknown-client: fail"]
        case .redirectAnyHostUnderParent: ["authorize.lookalike-redirect: fail"]
        case .truncatesLongState: ["authorize.state: fail"]
        case .codePrefix: ["token.invalid-code: fail"]
        case .refreshAnyCase: ["token.invalid-refresh: fail"]
        case .racyCode: ["token.code-single-use: fail"]
        case .refreshIgnoresSecret, .revokeIgnoresSecret: ["token.wrong-secret: fail"]
        case .revokeNeedsHint: ["token.revoke: fail"]
        case .shortGrace: ["token.refresh-rotation: fail"]
        case .chainOfFour: ["token.refresh-chain: fail"]
        case .codeAnyClient: ["token.code-client-binding: fail"]
        case .refreshAnyClient, .revokesOtherClientsTokens: ["token.refresh-client-binding: fail"]
        case .sessionBoundRefresh: ["token.refresh-outlives-session: fail"]
        case .signOutIgnored: ["token.refresh-outlives-session: could-not-run"]
        case .refreshNeedsLiveAccessToken: ["token.refresh-after-expiry: fail"]
        }
    }

    /// The scopes the audit asks for: two where the bug is in how a list of them is written.
    var scopes: [String] { self == .scopeListRefused ? ["profile", "devices"] : ["profile"] }

    /// How the partner configured Google's client: `noBasic` is audited as a partner that chose Basic, so
    /// that refusing it is the failure; every other bug with Google's default.
    var clientAuth: ClientAuthMethod { self == .noBasic ? .basic : .post }

    /// The exit status the findings make: 2 for a rule, 1 for a need outside the rules, else 0.
    var exitStatus: Int32 {
        if findings.contains(where: { $0.hasSuffix(": fail") }) { return 2 }
        return findings.contains { $0.hasSuffix(": could-not-run") } ? 1 : 0
    }
}
