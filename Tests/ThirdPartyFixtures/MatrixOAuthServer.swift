import AppFlipCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One server of the audit's real-server matrix (`Tests/ThirdPartyFixtures/oauth-servers`): an independent
/// OAuth2 server library from PyPI, pinned, on 127.0.0.1, set up as its documentation's quick start or as a
/// careful partner ships it, with one confidential client for the 12 App Flip redirect URIs and one user.
public struct MatrixOAuthServer: Sendable {
    /// The library's script in `Tests/ThirdPartyFixtures/oauth-servers`.
    public enum Library: String, Sendable, CaseIterable {
        case authlib = "authlib_flask.py"
        case aioauth = "aioauth_starlette.py"
        case pyoidc = "pyoidc_oauth2.py"
    }

    /// How the library is set up (`--config`).
    public enum Configuration: String, Sendable, CaseIterable {
        case quickstart
        case careful
    }

    /// `http://127.0.0.1:PORT`; every server answers `/login`, `/oauth/authorize`, `/oauth/token` and `/api/me`.
    public let baseURL: String
    let username: String
    let password: String

    /// Sets up the venv, starts the library's script on an ephemeral port, runs `body`, then stops the server
    /// by PID (``PythonServer``). The server exits by itself after `lifetimeSeconds` in case this process dies
    /// first.
    public static func run(
        _ library: Library,
        _ configuration: Configuration,
        clientID: String,
        clientSecret: String,
        scopes: [String],
        secondClient: (id: String, secret: String)? = nil,
        username: String = "alice",
        password: String,
        lifetimeSeconds: Int,
        _ body: @Sendable (MatrixOAuthServer) async throws -> Void
    ) async throws {
        let arguments =
            [
                "--config", configuration.rawValue, "--client-id", clientID, "--client-secret", clientSecret,
                "--username", username, "--password", password, "--lifetime", "\(lifetimeSeconds)",
            ]
            + AppFlipRedirectURI.all.flatMap { ["--redirect-uri", $0.string] } + scopes.flatMap { ["--scope", $0] }
            + (secondClient.map { ["--second-client-id", $0.id, "--second-client-secret", $0.secret] } ?? [])
        do {
            try await PythonServer.run(python: try await venv.value, fixture: "oauth-servers", script: library.rawValue, arguments: arguments) {
                port in
                try await body(MatrixOAuthServer(baseURL: "http://127.0.0.1:\(port)", username: username, password: password))
            }
        } catch {
            throw FixtureError("\(library.rawValue) --config \(configuration.rawValue): \(error)")
        }
    }

    /// Signs the user in through the server's `/login` form and returns the cookies it set, as a `Cookie` value.
    public func signIn() async throws -> String {
        try await ThirdPartyFixture.withHTTPClient { try await signIn(with: $0) }
    }

    private func signIn(with client: HTTPClient) async throws -> String {
        var request = HTTPClientRequest(url: "\(baseURL)/login")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode([("username", username), ("password", password)])))
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        let cookies = response.headers["Set-Cookie"].compactMap { $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } }
        guard (300..<400).contains(Int(response.status.code)), !cookies.isEmpty else {
            throw FixtureError("the sign-in failed: HTTP \(response.status.code), \(cookies.count) cookies")
        }
        return cookies.joined(separator: "; ")
    }

    /// Starts an authorization the way a user who gives up before the app finishes does: the signed-in user's
    /// request for `scope` gets a code, which is never exchanged. Every production server holds such codes, so
    /// each audit meets one, whatever order it runs its checks in. Returns the HTTP status.
    public func abandonAuthorization(cookie: String, clientID: String, scope: String) async throws -> UInt {
        let query = FormEncoding.encode([
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", AppFlipRedirectURI.all[0].string),
            ("state", "abandoned"), ("scope", scope),
        ])
        var request = HTTPClientRequest(url: "\(baseURL)/oauth/authorize?\(query)")
        request.headers.add(name: "Cookie", value: cookie)
        return try await ThirdPartyFixture.withHTTPClient { client in
            let response = try await client.execute(request, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            return response.status.code
        }
    }

    /// The venv's python, set up once per process.
    private static let venv = Task { try await PythonVenv.setUp(fixture: "oauth-servers", venv: "oauth-servers-venv") }
}
