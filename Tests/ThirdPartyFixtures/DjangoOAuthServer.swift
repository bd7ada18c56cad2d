import AppFlipCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// django-oauth-toolkit 3.4.1 on 127.0.0.1: the real third-party OAuth2 server of the interop tests, with
/// one confidential client and one user. `Tests/ThirdPartyFixtures/django-oauth-toolkit/setup.sh` creates
/// `.build/django-venv` on first use (pip from PyPI).
public struct DjangoOAuthServer: Sendable {
    /// `http://127.0.0.1:PORT`; `/o/authorize/` and `/o/token/` are below it.
    public let baseURL: String
    public let username: String
    public let password: String

    /// Sets up the venv, starts `serve.py` on an ephemeral port with the client registered for
    /// `redirectURIs`, runs `body`, then stops the server by PID (``PythonServer``). The server exits by
    /// itself after `lifetimeSeconds` in case this process dies first. `defaults` keeps django-oauth-toolkit's
    /// own settings (PKCE required, 60-second codes) instead of the interop settings (`serve.py --defaults`).
    public static func run(
        clientID: String,
        clientSecret: String,
        secondClient: (id: String, secret: String)? = nil,
        username: String = "alice",
        password: String,
        redirectURIs: [String],
        lifetimeSeconds: Int,
        defaults: Bool = false,
        _ body: @Sendable (DjangoOAuthServer) async throws -> Void
    ) async throws {
        let arguments =
            [
                "--client-id", clientID, "--client-secret", clientSecret, "--username", username, "--password", password,
                "--lifetime", "\(lifetimeSeconds)",
            ]
            + redirectURIs.flatMap { ["--redirect-uri", $0] } + (defaults ? ["--defaults"] : [])
            + (secondClient.map { ["--second-client-id", $0.id, "--second-client-secret", $0.secret] } ?? [])
        try await PythonServer.run(python: try await venv.value, fixture: "django-oauth-toolkit", script: "serve.py", arguments: arguments) { port in
            try await body(DjangoOAuthServer(baseURL: "http://127.0.0.1:\(port)", username: username, password: password))
        }
    }

    /// Signs the user in through Django's login form and returns the `sessionid=…` cookie.
    public func signIn() async throws -> String {
        try await ThirdPartyFixture.withHTTPClient { try await signIn(with: $0) }
    }

    private func signIn(with client: HTTPClient) async throws -> String {
        let form = try await client.execute(HTTPClientRequest(url: "\(baseURL)/accounts/login/"), timeout: .seconds(30))
        let page = String(buffer: try await form.body.collect(upTo: 1 << 20))
        guard let csrfCookie = Self.cookie(named: "csrftoken", in: form) else { throw FixtureError("no csrftoken cookie") }
        let marker = "name=\"csrfmiddlewaretoken\" value=\""
        guard let start = page.range(of: marker)?.upperBound else { throw FixtureError("no csrfmiddlewaretoken in the login form") }
        let token = String(page[start...].prefix { $0 != "\"" })

        var request = HTTPClientRequest(url: "\(baseURL)/accounts/login/")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Cookie", value: csrfCookie)
        request.body = .bytes(
            ByteBuffer(
                string: FormEncoding.encode([
                    ("csrfmiddlewaretoken", token), ("username", username), ("password", password),
                ])
            )
        )
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .found else { throw FixtureError("login failed: HTTP \(response.status)") }
        guard let session = Self.cookie(named: "sessionid", in: response) else { throw FixtureError("the login set no sessionid cookie") }
        return session
    }

    static func cookie(named name: String, in response: HTTPClientResponse) -> String? {
        response.headers["Set-Cookie"].lazy
            .compactMap { $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } }
            .first { $0.hasPrefix(name + "=") }
    }

    /// The venv's python, set up once per process: both interop suites may start at the same moment.
    private static let venv = Task { try await PythonVenv.setUp(fixture: "django-oauth-toolkit", venv: "django-venv") }
}
