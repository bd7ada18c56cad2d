/// Something a check needs before it can judge: a target or an option given, a precondition established by
/// another check, or a kind of answer the partner gave. Every skip and every could-not-run of the audit is
/// an unmet need (docs/audit.md, "Needs and blame"): a need that is not given skips what requires it, one the
/// audit's own input could not establish is could-not-run on the check that establishes it, one the partner
/// broke a rule for fails that rule and skips what requires it, naming the rule.
public enum AuditNeed: String, Sendable, Hashable, Codable, CaseIterable {
    // MARK: Targets and options
    /// The partner app through appflipd: `--link`, `--client-id`, `--scope`.
    case partnerApp = "partner-app"
    /// The authorization endpoint: `--authorize-url` and a sign-in credential.
    case authorizationEndpoint = "authorization-endpoint"
    /// The token endpoint: `--token-url` and a client secret, or `--oauth-config`.
    case tokenEndpoint = "token-endpoint"
    /// The association file: `--aasa-file` or `--aasa-domain`, with `--app-id`.
    case associationFile = "association-file"
    /// The Android association file: `--assetlinks-file` or `--assetlinks-domain`.
    case androidAssociationFile = "android-association-file"
    /// The Android app through appflipd: `--android-package`, `--android-action` and the rest.
    case androidApp = "android-app"
    /// The partner's Android build artifact: `--app` with an APK, an AAB or a manifest.
    case androidArtifact = "android-artifact"
    /// The partner's iOS build artifacts: `--app` with an .ipa, a profile, an executable or an entitlements file.
    case iosArtifact = "ios-artifact"
    /// At least one `--scope`.
    case scopes
    /// A protected resource: `--resource-url`.
    case resource
    /// The RFC 7009 revocation endpoint: `--revoke-url`.
    case revocationEndpoint = "revocation-endpoint"
    /// The slow checks: `--slow`.
    case slow
    /// A second client registered at the partner: its id and secret (`--second-client-id`,
    /// `--second-client-secret-file`).
    case secondClient = "second-client"
    /// A way to end the signed-in user's session: `--sign-out-url`, with the sign-in credential or a second
    /// one to sign out with (`--sign-out-session-file`).
    case sessionEnd = "session-end"

    // MARK: Established by a precondition
    /// The flip link reaches the partner app (`partner.route`).
    case appRoute = "app-route"
    /// A valid flip link yields a code (`partner.code`).
    case appCode = "app-code"
    /// The sign-in credential is accepted (`authorize.sign-in`).
    case signIn = "sign-in"
    /// A valid request to the authorization endpoint yields a code (`authorize.code`).
    case authorizationCode = "authorization-code"
    /// A fresh code for the token checks, from the partner app or the authorization endpoint.
    case code
    /// A client authentication the token endpoint accepts (`token.client-auth`).
    case workingClientAuth = "working-client-auth"
    /// A code exchanged for tokens (`token.exchange`).
    case tokens
    /// An exchange that issued a refresh token (`token.refresh-issued`).
    case refreshToken = "refresh-token"
    /// A refresh that issued a new access token (`token.refresh`).
    case refresh
    /// The Google app's intent yields a code (`android.code`).
    case androidCode = "android-code"
    /// The second client's credentials are accepted (`token.code-client-binding`).
    case secondClientAuth = "second-client-auth"
    /// The sign-out ended the session the check's code came from (`token.refresh-outlives-session`).
    case signedOut = "signed-out"
    /// The statements of the app's App Links hosts name a key the app is signed with (`app.android.statement-key`).
    case appLinksKey = "app-links-key"
    /// Android 12+ verifies every host of the app's autoVerify filters (`app.android.hosts-verified`).
    case appLinksVerified = "app-links-verified"

    // MARK: Answers of the partner that a rule judges
    /// A redirect from the authorization endpoint.
    case redirect
    /// A refusal from the token or revocation endpoint.
    case errorAnswer = "error-answer"
    /// A refusal with a JSON object for a body.
    case errorObject = "error-object"
    /// An HTTP 401 from the token or revocation endpoint, or a client-authentication failure in HTTP Basic.
    case unauthorizedAnswer = "unauthorized-answer"
    /// A refresh answer that gives a new refresh token: the refresh tokens rotate.
    case rotation
    /// The refresh grant itself is accepted, so that a refused refresh token says something about the token.
    case refreshGrant = "refresh-grant"
    /// A token response that names its scope (RFC 6749 §5.1).
    case tokenScope = "token-scope"
    /// A result URL the partner app opened.
    case appResult = "app-result"
    /// An error result from the partner app.
    case appErrorResult = "app-error-result"
    /// A wrong `CLIENT_ID` refused by the Android app.
    case androidRefusal = "android-refusal"
    /// A partner endpoint off the loopback interface, which Google could call.
    case publicEndpoint = "public-endpoint"
}

extension AuditNeed {
    /// The need that `target` was given.
    public init(target: AuditTarget) {
        switch target {
        case .partnerApp: self = .partnerApp
        case .authorizationEndpoint: self = .authorizationEndpoint
        case .tokenEndpoint: self = .tokenEndpoint
        case .associationFile: self = .associationFile
        case .androidAssociationFile: self = .androidAssociationFile
        case .androidApp: self = .androidApp
        case .androidArtifact: self = .androidArtifact
        case .iosArtifact: self = .iosArtifact
        }
    }
}

extension AuditNeed {
    /// The need in a few words, for docs/audit.md's list: what gives it, or which check establishes it.
    public var summary: String {
        switch self {
        case .partnerApp: "the partner app is given: --link, --client-id, --scope"
        case .authorizationEndpoint: "the authorization endpoint is given: --authorize-url and a sign-in credential"
        case .tokenEndpoint: "the token endpoint is given: --token-url and a client secret, or --oauth-config"
        case .associationFile: "the association file is given: --aasa-file or --aasa-domain, with --app-id"
        case .androidAssociationFile: "the Android association file is given: --assetlinks-file or --assetlinks-domain"
        case .androidApp: "the Android app is given: --android-package, --android-action, --redirect-uri, --caller-fingerprint"
        case .androidArtifact: "the Android artifact is given: --app with an APK, an AAB or an AndroidManifest.xml"
        case .iosArtifact: "the iOS artifacts are given: --app with an .ipa, a profile, an executable or an .entitlements file"
        case .scopes: "at least one --scope"
        case .resource: "--resource-url"
        case .revocationEndpoint: "--revoke-url"
        case .slow: "--slow"
        case .secondClient: "a second client registered at the partner: --second-client-id and --second-client-secret-file"
        case .sessionEnd: "a way to end the user's sign-in session: --sign-out-url"
        case .appRoute: "the flip link reaches the app (partner.route)"
        case .appCode: "a valid flip link yields a code (partner.code)"
        case .signIn: "the sign-in credential is accepted (authorize.sign-in)"
        case .authorizationCode: "a valid request yields a code (authorize.code)"
        case .code: "a fresh code for the token checks, from partner.code or authorize.code"
        case .workingClientAuth: "the token endpoint accepts the client's credentials by a method Google can use (token.client-auth)"
        case .tokens: "a code exchanged for tokens (token.exchange)"
        case .refreshToken: "the exchange issued a refresh token (token.refresh-issued)"
        case .refresh: "a refresh issued a new access token (token.refresh)"
        case .androidCode: "the Google app's intent yields a code (android.code)"
        case .secondClientAuth: "the token endpoint accepts the second client's credentials (token.code-client-binding)"
        case .signedOut: "the sign-out ended the session the check's code came from (token.refresh-outlives-session)"
        case .appLinksKey: "the statements of the app's hosts name a key it is signed with (app.android.statement-key)"
        case .appLinksVerified: "Android 12+ verifies every host of the app's autoVerify filters (app.android.hosts-verified)"
        case .redirect: "the authorization endpoint redirected to a redirect_uri"
        case .errorAnswer: "the token or revocation endpoint refused a request Google can send"
        case .errorObject: "one of those refusals has a JSON object for a body"
        case .unauthorizedAnswer: "an HTTP 401, or a failed HTTP Basic attempt"
        case .rotation: "a refresh gave a new refresh token"
        case .refreshGrant: "the refresh grant itself is accepted"
        case .tokenScope: "the token response names its scope"
        case .appResult: "the partner app opened a result"
        case .appErrorResult: "the partner app opened an error result"
        case .androidRefusal: "the Android app refused a wrong CLIENT_ID"
        case .publicEndpoint: "an endpoint off the loopback interface"
        }
    }
}
