/// Every check `appflip audit` runs: its id, the target it belongs to, a title, the rule in one sentence
/// and where the rule comes from. docs/audit.md lists the same catalogue.
public enum AuditCheck: String, Sendable, Hashable, Codable, CaseIterable {
    // MARK: The partner app, through appflipd
    case partnerRoute = "partner.route"
    case partnerCode = "partner.code"
    case partnerRedirectURIs = "partner.redirect-uris"
    case partnerResultShape = "partner.result-shape"
    case partnerStateSuccess = "partner.state-success"
    case partnerStateError = "partner.state-error"
    case partnerWrongClientID = "partner.wrong-client-id"
    case partnerLookalikeRedirect = "partner.lookalike-redirect"
    case partnerInvalidRequest = "partner.invalid-request"
    case partnerErrorValues = "partner.error-values"
    case partnerScope = "partner.scope"
    // MARK: The authorization endpoint
    case authorizeSignIn = "authorize.sign-in"
    case authorizeCode = "authorize.code"
    case authorizeRedirectURIs = "authorize.redirect-uris"
    case authorizeLookalikeRedirect = "authorize.lookalike-redirect"
    case authorizeUnknownClient = "authorize.unknown-client"
    case authorizeState = "authorize.state"
    // MARK: The token endpoint
    case tokenClientAuth = "token.client-auth"
    case tokenExchange = "token.exchange"
    case tokenJSON = "token.json"
    case tokenNoStore = "token.no-store"
    case tokenBearer = "token.bearer"
    case tokenOpaque = "token.opaque"
    case tokenExpiresIn = "token.expires-in"
    case tokenRefreshIssued = "token.refresh-issued"
    case tokenCodeSingleUse = "token.code-single-use"
    case tokenCodeRedirectBinding = "token.code-redirect-binding"
    case tokenWrongSecret = "token.wrong-secret"
    case tokenUnknownClient = "token.unknown-client"
    case tokenRefresh = "token.refresh"
    case tokenRefreshChain = "token.refresh-chain"
    case tokenRefreshRotation = "token.refresh-rotation"
    case tokenInvalidRefresh = "token.invalid-refresh"
    case tokenErrorFormat = "token.error-format"
    case tokenErrorFields = "token.error-fields"
    case tokenWWWAuthenticate = "token.www-authenticate"
    case tokenResource = "token.resource"
    case tokenResourceRefusal = "token.resource-refusal"
    case tokenRevoke = "token.revoke"
    case tokenRevokeUnknown = "token.revoke-unknown"
    case tokenCodeExpiry = "token.code-expiry"
    // MARK: The association file
    case associationValid = "aasa.valid"
    case associationRoutesLink = "aasa.routes-link"
    case associationHostedHTTPS = "aasa.hosted-https"
    case associationHostedNoRedirect = "aasa.hosted-no-redirect"
    case associationHostedStatus = "aasa.hosted-status"
    case associationHostedContentType = "aasa.hosted-content-type"
    case associationHostedSize = "aasa.hosted-size"
    // MARK: The Android association file (assetlinks.json)
    case assetLinksHostedHTTPS = "assetlinks.hosted-https"
    case assetLinksHostedNoRedirect = "assetlinks.hosted-no-redirect"
    case assetLinksHostedStatus = "assetlinks.hosted-status"
    case assetLinksHostedContentType = "assetlinks.hosted-content-type"
    case assetLinksHostedSize = "assetlinks.hosted-size"
    case assetLinksValid = "assetlinks.valid"
    case assetLinksDelegates = "assetlinks.delegates"
    case assetLinksGoogleVerifies = "assetlinks.google-verifies"
    case assetLinksStatementServiceVerifies = "assetlinks.statement-service-verifies"
    // MARK: The Android app, through appflipd
    case androidAction = "android.action"
    case androidCode = "android.code"
    case androidCallerPackage = "android.caller-package"
    case androidCallerFingerprint = "android.caller-fingerprint"
    case androidCallerUnverified = "android.caller-unverified"
    case androidWrongClientID = "android.wrong-client-id"
    case androidErrorType = "android.error-type"
    case androidResultContract = "android.result-contract"
    case androidScope = "android.scope"
    case androidTokenExchange = "android.token-exchange"

    /// The part of the integration the check looks at.
    public var target: AuditTarget {
        switch self {
        case .partnerRoute, .partnerCode, .partnerRedirectURIs, .partnerResultShape, .partnerStateSuccess, .partnerStateError, .partnerWrongClientID,
            .partnerLookalikeRedirect, .partnerInvalidRequest, .partnerErrorValues, .partnerScope:
            .partnerApp
        case .authorizeSignIn, .authorizeCode, .authorizeRedirectURIs, .authorizeLookalikeRedirect, .authorizeUnknownClient, .authorizeState:
            .authorizationEndpoint
        case .associationValid, .associationRoutesLink, .associationHostedHTTPS, .associationHostedNoRedirect, .associationHostedStatus,
            .associationHostedContentType, .associationHostedSize:
            .associationFile
        case .assetLinksHostedHTTPS, .assetLinksHostedNoRedirect, .assetLinksHostedStatus, .assetLinksHostedContentType, .assetLinksHostedSize,
            .assetLinksValid, .assetLinksDelegates, .assetLinksGoogleVerifies, .assetLinksStatementServiceVerifies:
            .androidAssociationFile
        case .androidAction, .androidCode, .androidCallerPackage, .androidCallerFingerprint, .androidCallerUnverified, .androidWrongClientID,
            .androidErrorType, .androidResultContract, .androidScope, .androidTokenExchange:
            .androidApp
        default:
            .tokenEndpoint
        }
    }

    /// A few words for the report line.
    public var title: String {
        switch self {
        case .partnerRoute: "the flip link routes to the app"
        case .partnerCode: "a valid flip yields a code (precondition)"
        case .partnerRedirectURIs: "all 12 App Flip redirect URIs get a code"
        case .partnerResultShape: "one result URL, universal-links-only, on the exact redirect_uri"
        case .partnerStateSuccess: "hostile states come back byte for byte with a code"
        case .partnerStateError: "hostile states come back byte for byte with an error"
        case .partnerWrongClientID: "wrong client_ids are declined, nothing opened"
        case .partnerLookalikeRedirect: "a lookalike redirect_uri is declined, nothing opened"
        case .partnerInvalidRequest: "missing, empty or repeated state or scope get invalid_request"
        case .partnerErrorValues: "errors use only App Flip's three values"
        case .partnerScope: "the scopes asked reach the code"
        case .androidAction: "the action is the partner's own, not the placeholder"
        case .androidCode: "the Google app's intent yields a code (precondition)"
        case .androidCallerPackage: "another package gets no code"
        case .androidCallerFingerprint: "the Google package signed by another key gets no code"
        case .androidCallerUnverified: "a caller that cannot be verified gets no code"
        case .androidWrongClientID: "wrong CLIENT_IDs get no code"
        case .androidErrorType: "a wrong CLIENT_ID is not answered as recoverable"
        case .androidResultContract: "every result keeps the result contract"
        case .androidScope: "SCOPE, a String[], reaches the code"
        case .androidTokenExchange: "the returned code is exchanged with REDIRECT_URI"
        case .authorizeSignIn: "the sign-in credential is accepted (precondition)"
        case .authorizeCode: "a request as Google sends it, without PKCE, gets a code"
        case .authorizeRedirectURIs: "all 12 redirect URIs are accepted"
        case .authorizeLookalikeRedirect: "a lookalike redirect_uri gets no redirect"
        case .authorizeUnknownClient: "unknown client_ids get no redirect"
        case .authorizeState: "hostile states come back byte for byte"
        case .tokenClientAuth: "the client authentication Google uses is accepted"
        case .tokenExchange: "the code is exchanged"
        case .tokenJSON: "the token response is JSON"
        case .tokenNoStore: "the token response says Cache-Control: no-store"
        case .tokenBearer: "token_type is Bearer"
        case .tokenOpaque: "the access token is opaque, not a JWT"
        case .tokenExpiresIn: "expires_in is a positive integer"
        case .tokenRefreshIssued: "a refresh token is issued"
        case .tokenCodeSingleUse: "a code is single-use"
        case .tokenCodeRedirectBinding: "a code is bound to its redirect_uri"
        case .tokenWrongSecret: "a wrong client secret gets invalid_client"
        case .tokenUnknownClient: "an unknown client gets invalid_client"
        case .tokenRefresh: "a refresh returns a new access token"
        case .tokenRefreshChain: "refreshes in a row keep working"
        case .tokenRefreshRotation: "a rotated-out refresh token works until its successor is used"
        case .tokenInvalidRefresh: "a bogus refresh token gets HTTP 400 invalid_grant"
        case .tokenErrorFormat: "errors are JSON with error, HTTP 400 or 401"
        case .tokenErrorFields: "error members and values are the registered ones"
        case .tokenWWWAuthenticate: "a 401 to HTTP Basic challenges with Basic"
        case .tokenResource: "the access token opens the resource"
        case .tokenResourceRefusal: "the resource refuses missing, bogus and revoked tokens with a Bearer challenge"
        case .tokenRevoke: "a revoked refresh token and its access tokens die"
        case .tokenRevokeUnknown: "revoking an unknown token answers 200"
        case .tokenCodeExpiry: "a code older than 10 minutes is refused"
        case .associationValid: "the association file is valid"
        case .associationRoutesLink: "the association file routes the flip link to the app"
        case .associationHostedHTTPS: "the hosted file is served over HTTPS with a trusted certificate"
        case .associationHostedNoRedirect: "the hosted file is served at its URL without a redirect"
        case .associationHostedStatus: "the hosted file is answered with 200 OK"
        case .associationHostedContentType: "the hosted file is served as application/json"
        case .associationHostedSize: "the hosted file is at most 128 KB"
        case .assetLinksHostedHTTPS, .assetLinksHostedNoRedirect, .assetLinksHostedStatus, .assetLinksHostedContentType, .assetLinksHostedSize,
            .assetLinksValid, .assetLinksDelegates, .assetLinksGoogleVerifies, .assetLinksStatementServiceVerifies:
            AssetLinksRule(rawValue: rawValue)?.title ?? rawValue
        }
    }

    /// The rule, in one sentence.
    public var rule: String {
        switch self {
        case .partnerRoute:
            "The flip link must open the partner app as a universal link, by one of its associated domains' AASA rules."
        case .partnerCode:
            "Precondition: a valid flip link yields a code, for the checks that need one; when it cannot, the app's answer and the authorization endpoint's say why."
        case .partnerRedirectURIs:
            "Each of the 12 App Flip redirect URIs (Home and Assistant, production, dev and enterprise, both hosts) must get a code."
        case .partnerResultShape:
            "The app opens exactly one URL, universal-links-only, whose text before ? is the redirect_uri exactly, with only code and state, or error (and error_description) and state."
        case .partnerStateSuccess:
            "state comes back byte for byte with the code, whatever characters it holds (encoded on the way back)."
        case .partnerStateError:
            "state comes back byte for byte with an error result too."
        case .partnerWrongClientID:
            "A client_id that is not Google's (another, in another case, a prefix, with a trailing space, empty or missing) must be declined: no result URL opened."
        case .partnerLookalikeRedirect:
            "A redirect_uri that is not exactly one of the 12 must be declined with nothing opened, never redirected to; sent twice beside the real one, in either order, nothing may reach the lookalike."
        case .partnerInvalidRequest:
            "A missing, empty or repeated state or scope gets error=invalid_request on the valid redirect_uri (a decline, as the seed's sample does, or a code for a missing scope, RFC 6749 §3.3's default, is a warning)."
        case .partnerErrorValues:
            "An error result uses only cancelled, unrecoverable or invalid_request, with error_description percent-encoded."
        case .partnerScope:
            "The flip link's scope, a space-separated list, reaches the code: asked for the first scope alone and for all of them, the code's tokens carry what was asked, or what the authorization endpoint's own code for it carries (a server may grant other scopes, RFC 6749 §3.3)."
        case .androidAction:
            "The App Flip intent action is the one the partner entered in the console, not INTENT_ACTION_FROM_CONSOLE, the placeholder of Google's manifest example."
        case .androidCode:
            "Precondition: the Google app's intent (started for a result, CLIENT_ID, SCOPE as a String[], REDIRECT_URI) gets RESULT_OK with a code, for the checks that need one."
        case .androidCallerPackage:
            "An intent started by another package, even with Google's certificate, gets no code."
        case .androidCallerFingerprint:
            "An intent started by the Google app's package signed by another certificate gets no code."
        case .androidCallerUnverified:
            "An intent whose calling app cannot be verified (not started for a result: getCallingActivity() is null) gets no code."
        case .androidWrongClientID:
            "A CLIENT_ID that is not Google's (another, in another case, with a trailing space, empty) gets no code."
        case .androidErrorType:
            "A wrong CLIENT_ID is refused as an invalid request (ERROR_TYPE 3) or canceled, never as recoverable (ERROR_TYPE 1), which sends Google to web OAuth with the same request."
        case .androidResultContract:
            "Every result is RESULT_OK (-1) with a non-empty String AUTHORIZATION_CODE, -2 with an int ERROR_TYPE of 1, 2 or 3 and an int ERROR_CODE (ERROR_DESCRIPTION optional), or RESULT_CANCELED (0); a code only with RESULT_OK."
        case .androidScope:
            "SCOPE is a String[]: the tokens of the code returned for one scope carry exactly that scope (read as a String it is null, and the scopes are lost)."
        case .androidTokenExchange:
            "The code the app returned is exchanged at the token endpoint with the intent's REDIRECT_URI."
        case .authorizeSignIn:
            "Precondition: a valid request with the sign-in credential is answered with a redirect to its redirect_uri, not a login page, 401, 403 or an error page."
        case .authorizeCode:
            "A valid request as Google sends it, without code_challenge, gets a code: the server must not require PKCE for Google's client."
        case .authorizeRedirectURIs:
            "Each of the 12 redirect URIs, registered for the client, gets a redirect to it carrying a code and the state."
        case .authorizeLookalikeRedirect:
            "A redirect_uri that is not exactly a registered one gets no redirect at all; sent twice beside the registered one, in either order, no redirect may go to the lookalike."
        case .authorizeUnknownClient:
            "An unknown client_id (another, in another case, a prefix, with a trailing space, empty or missing) gets no redirect at all."
        case .authorizeState:
            "The state comes back byte for byte in the redirect."
        case .tokenClientAuth:
            "The token endpoint accepts the client authentication Google sends: client_secret_post, or HTTP Basic when the partner configured it (--client-auth)."
        case .tokenExchange:
            "A valid code with the identical redirect_uri and the client's credentials gets tokens."
        case .tokenJSON:
            "A token response is HTTP 200 with an application/json body."
        case .tokenNoStore:
            "A response holding tokens carries Cache-Control: no-store."
        case .tokenBearer:
            "token_type is Bearer, in any case."
        case .tokenOpaque:
            "The access token is an opaque string, not a JWT."
        case .tokenExpiresIn:
            "expires_in is a positive integer number of seconds."
        case .tokenRefreshIssued:
            "An expiring access token comes with a refresh token."
        case .tokenCodeSingleUse:
            "A code used twice gets invalid_grant; the tokens issued from it, shown working just before, SHOULD be revoked (a warning if they still work)."
        case .tokenCodeRedirectBinding:
            "A code presented with another of the 12 redirect URIs than its own gets invalid_grant; with its own plus a trailing slash (registered for no client) invalid_grant or invalid_request; without redirect_uri it gets no tokens."
        case .tokenWrongSecret:
            "A wrong, empty or missing client secret, by every method the server accepts, gets invalid_client."
        case .tokenUnknownClient:
            "An unknown client_id, by every method the server accepts, gets invalid_client."
        case .tokenRefresh:
            "A refresh returns a new access token; a new refresh token is optional."
        case .tokenRefreshChain:
            "Three refreshes in a row, each with the refresh token the previous answer gave (or the one presented), each get a new access token that opens the resource."
        case .tokenRefreshRotation:
            "When refresh tokens rotate, the previous one still works until the new one has been used."
        case .tokenInvalidRefresh:
            "A refresh token the server never issued (made up, an access token, a real one cut short) gets HTTP 400 with error=invalid_grant."
        case .tokenErrorFormat:
            "Every error is a JSON object with error, on HTTP 400 or 401: not HTML, not 200."
        case .tokenErrorFields:
            "An error names error_description and error_uri so, and error is one of invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope (unsupported_token_type at revocation)."
        case .tokenWWWAuthenticate:
            "A client that authenticated with HTTP Basic and failed gets HTTP 401 with WWW-Authenticate: Basic."
        case .tokenResource:
            "The access token opens the resource it was issued for (Authorization: Bearer)."
        case .tokenResourceRefusal:
            "The resource answers no token, a token it never issued and a revoked token with WWW-Authenticate: Bearer (SHOULD, else a warning: HTTP 401, error=\"invalid_token\" for a token, no error code without one)."
        case .tokenRevoke:
            "A revoked refresh token no longer refreshes; its access tokens SHOULD stop opening the resource (a warning if they still do)."
        case .tokenRevokeUnknown:
            "Revoking a token the server never issued answers HTTP 200."
        case .tokenCodeExpiry:
            "A code is refused once it is older than 10 minutes."
        case .associationValid:
            "The apple-app-site-association file parses and follows Apple's format."
        case .associationRoutesLink:
            "Its applinks rules send the flip link to the partner's app id."
        case .associationHostedHTTPS:
            "The domain's file is fetched over HTTPS with a certificate trusted for the domain's name."
        case .associationHostedNoRedirect:
            "The file is served at its well-known URL: iOS follows no redirect."
        case .associationHostedStatus:
            "The file is answered with 200 OK; any other status is no file."
        case .associationHostedContentType:
            "The file is served with the application/json content type."
        case .associationHostedSize:
            "The file is at most 128 KB, uncompressed."
        case .assetLinksHostedHTTPS, .assetLinksHostedNoRedirect, .assetLinksHostedStatus, .assetLinksHostedContentType, .assetLinksHostedSize,
            .assetLinksValid, .assetLinksDelegates, .assetLinksGoogleVerifies, .assetLinksStatementServiceVerifies:
            AssetLinksRule(rawValue: rawValue)?.sentence ?? rawValue
        }
    }

    /// Where the rule comes from.
    public var source: String {
        switch self {
        case .partnerRoute: "\(AuditSource.seed), step 1; \(AuditSource.appleAASA)"
        case .partnerCode: AuditSource.precondition
        case .partnerRedirectURIs: "\(AuditSource.seed), \"Modify your authorization endpoint\""
        case .partnerResultShape: "\(AuditSource.seed), steps 5 and 6; \(AuditSource.rfc(6749, "4.1.2"))"
        case .partnerStateSuccess: "\(AuditSource.seed), step 5; \(AuditSource.rfc(6749, "4.1.2")); \(AuditSource.rfc(3986, "2.1"))"
        case .partnerStateError: "\(AuditSource.seed), step 6; \(AuditSource.rfc(6749, "4.1.2.1"))"
        case .partnerWrongClientID: "\(AuditSource.seed), step 4; \(AuditSource.rfc(6749, "4.1.2.1"))"
        case .partnerLookalikeRedirect: "\(AuditSource.seed), step 3; \(AuditSource.rfc(6749, "3.1")), §4.1.2.1; \(AuditSource.rfc(9700, "2.1"))"
        case .partnerInvalidRequest: "\(AuditSource.seed), invalid_request; \(AuditSource.rfc(6749, "4.1.2.1")); docs/app-flip.md rows E11–E17"
        case .partnerErrorValues: "\(AuditSource.seed), \"returned unsuccessfully\"; \(AuditSource.rfc(6749, "4.1.2.1"))"
        case .partnerScope: "\(AuditSource.seed), scope (\"a list of space-separated scopes requested\"); \(AuditSource.rfc(6749, "3.3")), §5.1"
        case .androidAction: "\(AuditSource.appFlipAndroid), \"Modify your Android app\" step 1"
        case .androidCode: AuditSource.precondition
        case .androidCallerPackage, .androidCallerFingerprint, .androidCallerUnverified:
            "\(AuditSource.appFlipAndroid), \"How it works\" step 4 and \"Modify your Android app\" step 2; Android, Activity.getCallingActivity()"
        case .androidWrongClientID: "\(AuditSource.appFlipAndroid), \"How it works\" step 4"
        case .androidErrorType, .androidResultContract: "\(AuditSource.appFlipAndroid), \"Response data\""
        case .androidScope: "\(AuditSource.appFlipAndroid), \"Intent data\"; googlesamples/identity-appflip-tester-android (SCOPE as String[])"
        case .androidTokenExchange: "\(AuditSource.appFlipAndroid), \"How it works\" step 6; \(AuditSource.rfc(6749, "4.1.3"))"
        case .authorizeSignIn: AuditSource.precondition
        case .authorizeCode: "\(AuditSource.seed), step 1 (the flip link's parameters); \(AuditSource.googleOAuth); \(AuditSource.rfc(6749, "4.1.2"))"
        case .authorizeRedirectURIs: "\(AuditSource.seed), \"Modify your authorization endpoint\"; \(AuditSource.rfc(6749, "4.1.2"))"
        case .authorizeLookalikeRedirect: "\(AuditSource.rfc(6749, "3.1")), §4.1.2.1; \(AuditSource.rfc(9700, "2.1")), §4.1"
        case .authorizeUnknownClient: AuditSource.rfc(6749, "4.1.2.1")
        case .authorizeState: AuditSource.rfc(6749, "4.1.2")
        case .tokenExchange: "\(AuditSource.rfc(6749, "4.1.3")); \(AuditSource.validationTool)"
        case .tokenClientAuth: "\(AuditSource.googleOAuth); \(AuditSource.rfc(6749, "2.3.1"))"
        case .tokenJSON: AuditSource.rfc(6749, "5.1")
        case .tokenNoStore: AuditSource.rfc(6749, "5.1")
        case .tokenBearer: "\(AuditSource.rfc(6749, "5.1")), §7.1; \(AuditSource.validationTool)"
        case .tokenOpaque: AuditSource.validationTool
        case .tokenExpiresIn: "\(AuditSource.rfc(6749, "5.1")); \(AuditSource.validationTool)"
        case .tokenRefreshIssued: AuditSource.validationTool
        case .tokenCodeSingleUse: "\(AuditSource.rfc(6749, "4.1.2")), §10.5"
        case .tokenCodeRedirectBinding: AuditSource.rfc(6749, "4.1.3")
        case .tokenWrongSecret, .tokenUnknownClient: AuditSource.rfc(6749, "5.2")
        case .tokenRefresh: "\(AuditSource.rfc(6749, "6")); \(AuditSource.validationTool)"
        case .tokenRefreshChain: "\(AuditSource.rfc(6749, "6")); \(AuditSource.googleUnlinking)"
        case .tokenRefreshRotation:
            "Google, Unlinking accounts (developers.google.com/identity/account-linking/unlinking); \(AuditSource.validationTool)"
        case .tokenInvalidRefresh: "\(AuditSource.rfc(6749, "5.2")); \(AuditSource.validationTool)"
        case .tokenErrorFormat: AuditSource.rfc(6749, "5.2")
        case .tokenErrorFields: "\(AuditSource.rfc(6749, "5.2")); \(AuditSource.rfc(7009, "2.2.1"))"
        case .tokenWWWAuthenticate: AuditSource.rfc(6749, "5.2")
        case .tokenResource: AuditSource.rfc(6750, "2.1")
        case .tokenResourceRefusal: "\(AuditSource.rfc(6750, "3")), §3.1"
        case .tokenRevoke: "\(AuditSource.rfc(7009, "2.1")); \(AuditSource.googleUnlinking)"
        case .tokenRevokeUnknown: AuditSource.rfc(7009, "2.2")
        case .tokenCodeExpiry: AuditSource.rfc(6749, "4.1.2")
        case .associationValid: AuditSource.appleAASA
        case .associationRoutesLink: "\(AuditSource.appleAASA); \(AuditSource.seed), step 1"
        case .associationHostedHTTPS, .associationHostedNoRedirect: AuditSource.appleHosting
        case .associationHostedStatus: AuditSource.hostingStatus
        case .associationHostedContentType: AuditSource.hostingContentType
        case .associationHostedSize: AuditSource.hostingSize
        case .assetLinksHostedHTTPS, .assetLinksHostedNoRedirect, .assetLinksHostedStatus, .assetLinksHostedContentType, .assetLinksHostedSize,
            .assetLinksValid, .assetLinksDelegates, .assetLinksGoogleVerifies, .assetLinksStatementServiceVerifies:
            AssetLinksRule(rawValue: rawValue)?.source ?? rawValue
        }
    }
}
