import AppFlipCore
import AppFlipTestSupport
import AppFlipTesting
import Testing
import ThirdPartyFixtures

/// The audit against independent OAuth2 server libraries from PyPI, pinned (Tests/ThirdPartyFixtures/oauth-servers,
/// README.md there), each set up as its documentation's quick start and as a careful partner ships it, and
/// django-oauth-toolkit with its own defaults: every partner-app (appflipd's `appflip` handler authorizing
/// at the server), authorization- and token-endpoint verdict of `appflip audit --json` must equal the
/// hand-verified table in `Expected/`. Slow: seven Python servers, each audited in full.
@Suite(.slow) struct OAuthMatrixTests {
    static let clientID = "appflip-matrix-client"
    static let clientSecret = "matrix-secret-0123456789abcdef"
    /// A second client registered at every server: one client's codes and tokens must be refused to the other.
    static let secondClient = (id: "appflip-matrix-second-client", secret: "matrix-second-secret-0123456789")
    static let password = "matrix-password-42"
    static let scopes = ["profile"]

    static let servers: [(MatrixOAuthServer.Library, MatrixOAuthServer.Configuration)] = MatrixOAuthServer.Library.allCases.flatMap { library in
        MatrixOAuthServer.Configuration.allCases.map { (library, $0) }
    }

    @Test("appflip audit of an independent OAuth2 server library", .timeLimit(.minutes(5)), arguments: servers)
    func audit(library: MatrixOAuthServer.Library, configuration: MatrixOAuthServer.Configuration) async throws {
        let name = "\(library.tableName)-\(configuration.rawValue)"
        let table = try MatrixTable.load(name)
        try await MatrixOAuthServer.run(
            library,
            configuration,
            clientID: Self.clientID,
            clientSecret: Self.clientSecret,
            scopes: Self.scopes,
            secondClient: Self.secondClient,
            password: Self.password,
            lifetimeSeconds: 300
        ) { server in
            let cookie = try await server.signIn()
            let abandoned = try await server.abandonAuthorization(cookie: cookie, clientID: Self.clientID, scope: Self.scopes[0])
            #expect((300..<400).contains(abandoned), "the abandoned authorization got HTTP \(abandoned)")
            let report = try await MatrixAudit.run(
                .init(
                    authorize: server.baseURL + "/oauth/authorize",
                    token: server.baseURL + "/oauth/token",
                    resource: server.baseURL + "/api/me",
                    revoke: library.hasRevocation ? server.baseURL + "/oauth/revoke" : nil
                ),
                clientID: Self.clientID,
                clientSecret: Self.clientSecret,
                secondClient: Self.secondClient,
                scopes: Self.scopes,
                cookie: cookie
            )
            Self.compare(report, with: table)
        }
    }

    @Test("appflip audit of django-oauth-toolkit with its defaults (PKCE required)", .timeLimit(.minutes(5)))
    func auditDjangoDefaults() async throws {
        let table = try MatrixTable.load("django-oauth-toolkit-defaults")
        try await DjangoOAuthServer.run(
            clientID: Self.clientID,
            clientSecret: Self.clientSecret,
            secondClient: Self.secondClient,
            password: Self.password,
            redirectURIs: AppFlipRedirectURI.all.map(\.string),
            lifetimeSeconds: 300,
            defaults: true
        ) { django in
            let report = try await MatrixAudit.run(
                .init(
                    authorize: django.baseURL + "/o/authorize/",
                    token: django.baseURL + "/o/token/",
                    resource: django.baseURL + "/api/hello",
                    revoke: django.baseURL + "/o/revoke_token/"
                ),
                clientID: Self.clientID,
                clientSecret: Self.clientSecret,
                secondClient: Self.secondClient,
                scopes: Self.scopes,
                cookie: try await django.signIn()
            )
            Self.compare(report, with: table)
        }
    }

    /// Every partner-app, authorization- and token-endpoint result against the table: equal; and every row of
    /// the table reported.
    static func compare(_ report: MatrixAudit.Report, with table: MatrixTable) {
        let results = report.results.filter {
            [AuditTarget.partnerApp, .authorizationEndpoint, .tokenEndpoint].map(\.rawValue).contains($0.target)
        }
        for result in results {
            guard let expected = table.verdict(of: result.id) else {
                Issue.record("\(table.name): the audit reports \(result.id) (\(result.outcome)), which the table does not list — \(result.reason)")
                continue
            }
            #expect(
                result.outcome == expected,
                "\(table.name) \(result.id): the audit says \(result.outcome), the table \(expected) — \(result.reason)"
            )
        }
        for row in table.verdicts where !results.contains(where: { $0.id == row.check }) {
            Issue.record("\(table.name): the table lists \(row.check), which the audit did not report")
        }
    }
}

extension MatrixOAuthServer.Library {
    /// The first part of the library's table names in `Expected/`.
    var tableName: String {
        switch self {
        case .authlib: "authlib"
        case .aioauth: "aioauth"
        case .pyoidc: "pyoidc"
        }
    }

    /// Whether the script serves RFC 7009 revocation at `/oauth/revoke` (pyoidc's OAuth2 provider has none).
    var hasRevocation: Bool { self != .pyoidc }
}
