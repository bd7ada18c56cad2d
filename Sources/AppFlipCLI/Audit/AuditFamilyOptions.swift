import AppFlipAudit
import AppFlipCore
import AppFlipHTTPClient
import ArgumentParser

/// `appflip audit`'s options for the lifecycle families: a second client, the refresh chain's length, the
/// rotation grace, and a way to end the user's sign-in session. Secrets come from files or the environment
/// only, never the command line.
struct AuditFamilyOptions: ParsableArguments {
    @Option(help: "A second client registered at the partner: one client's codes and refresh tokens must be refused to the other.")
    var secondClientID: String?

    @Option(help: "A file holding the second client's secret (or $APPFLIP_SECOND_CLIENT_SECRET; one final line break is ignored).")
    var secondClientSecretFile: String?

    @Option(help: "How many refreshes in a row token.refresh-chain makes, each with the refresh token the previous answer gave (1 to 50).")
    var refreshChain: Int = TokenEndpointTarget.defaultRefreshChainLength

    @Option(
        help: """
            Seconds after a rotation that token.refresh-rotation presents the rotated-out refresh token again, as \
            Google retries a refresh whose answer was lost (0 to 600; default 2).
            """
    )
    var rotationGrace: Double = 2

    @Option(
        help: """
            The partner's sign-out URL: token.refresh-outlives-session links with a code of a session, ends it \
            there, and refreshes. Needs --authorize-url; the session is the sign-in credential's, signed out \
            last, or --sign-out-session-file's.
            """
    )
    var signOutURL: String?

    @Option(help: "How --sign-out-url is called: post (the default) or get.")
    var signOutMethod: String = "post"

    @Option(
        help: """
            A file holding a second sign-in credential of the same user and kind as --cookie, --header or --bearer \
            (or $APPFLIP_SIGN_OUT_SESSION): the session token.refresh-outlives-session ends, so that the audit's \
            own stays signed in.
            """
    )
    var signOutSessionFile: String?

    static let secondClientSecret = SecretOption(option: "--second-client-secret", environmentVariable: "APPFLIP_SECOND_CLIENT_SECRET")
    static let signOutSession = SecretOption(option: "--sign-out-session", environmentVariable: "APPFLIP_SIGN_OUT_SESSION")

    /// Refuses what cannot be run before anything is sent; `clientID` is Google's, `tokenEndpoint` and
    /// `authorizationEndpoint` whether those targets are given.
    func validate(clientID: String?, tokenEndpoint: Bool, authorizationEndpoint: Bool) throws {
        if secondClientID != nil || secondClientSecretFile != nil {
            guard tokenEndpoint else { throw ValidationError("--second-client-id needs the token endpoint (--token-url or --oauth-config)") }
            guard let secondClientID, !secondClientID.isEmpty else { throw ValidationError("--second-client-secret-file needs --second-client-id") }
            guard secondClientID != clientID else { throw ValidationError("--second-client-id must be another client than --client-id") }
            guard try secondClientSecret() != nil else {
                throw ValidationError("--second-client-id needs --second-client-secret-file (or $APPFLIP_SECOND_CLIENT_SECRET)")
            }
        }
        guard (1...50).contains(refreshChain) else { throw ValidationError("--refresh-chain must be 1 to 50") }
        guard rotationGrace >= 0, rotationGrace <= 600 else { throw ValidationError("--rotation-grace must be 0 to 600 seconds") }
        guard ["post", "get"].contains(signOutMethod) else { throw ValidationError("--sign-out-method must be post or get") }
        if signOutURL == nil && (signOutSessionFile != nil || signOutMethod != "post") {
            throw ValidationError("--sign-out-method and --sign-out-session-file go with --sign-out-url")
        }
        if let signOutURL {
            guard authorizationEndpoint && tokenEndpoint else {
                throw ValidationError("--sign-out-url needs --authorize-url (the session's codes) and the token endpoint (its refreshes)")
            }
            guard let url = try? RawURL(signOutURL), ["http", "https"].contains(url.normalizedScheme) else {
                throw ValidationError("--sign-out-url must be an absolute http or https URL")
            }
        }
    }

    /// The second client's secret, from its file or the environment.
    func secondClientSecret() throws -> String? {
        try Self.secondClientSecret.resolve(value: nil, file: secondClientSecretFile)?.secret
    }

    /// The second client, when given.
    func secondClient() throws -> TokenEndpointTarget.SecondClient? {
        guard let secondClientID, let secret = try secondClientSecret() else { return nil }
        return TokenEndpointTarget.SecondClient(id: secondClientID, secret: secret)
    }

    /// The sign-out, when given; its second session is of the same kind as `credential`, the audit's own.
    func signOut(credential: SessionCredential?) throws -> AuthorizationEndpointTarget.SignOut? {
        guard let signOutURL else { return nil }
        let session = try Self.signOutSession.resolve(value: nil, file: signOutSessionFile).map { second -> SessionCredential in
            switch credential {
            case .cookie?, nil: return .cookie(second.secret)
            case .bearer?: return .bearer(second.secret)
            case .header(let name, _)?:
                guard let colon = second.secret.firstIndex(of: ":") else { return .header(name: name, value: second.secret) }
                return .header(
                    name: String(second.secret[..<colon]),
                    value: String(second.secret[second.secret.index(after: colon)...].drop { $0 == " " })
                )
            }
        }
        return AuthorizationEndpointTarget.SignOut(url: signOutURL, method: signOutMethod.uppercased(), session: session)
    }

    /// The token endpoint's lifecycle settings applied to `target`.
    func apply(to target: inout TokenEndpointTarget) throws {
        target.secondClient = try secondClient()
        target.refreshChainLength = refreshChain
        target.rotationGrace = .milliseconds(Int64(rotationGrace * 1000))
    }
}
