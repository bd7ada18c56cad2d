public import AppFlipConfiguration
import AppFlipCore
public import AppFlipHTTPClient
public import AsyncHTTPClient
import FoundationEssentials
import Hummingbird
public import Logging
import NIOCore
public import ServiceLifecycle

/// The embedded OAuth2 authorization server: `GET /authorize`, `POST /token`, `POST /revoke` (RFC 7009),
/// `POST /signout`, `GET /userinfo` and `GET /.well-known/oauth-authorization-server` (RFC 8414) over HTTP on
/// a loopback address, for the clients and test users of an `OAuthServerConfiguration`.
///
/// It is a `Service`: appflipd runs it in its own ServiceGroup, so that it starts, stops and logs with the
/// daemon, and so that the sign-in sessions it mints never leave that process. Get a user's session with
/// `sessionCredential(for:)` and call /authorize through `AuthorizationEndpoint`, exactly as for a remote
/// server.
public final class EmbeddedAuthorizationServer: Service, Sendable {
    /// The clients, users and lifetimes the server serves.
    public let configuration: OAuthServerConfiguration
    private let sessions: SignInSessions
    private let store: AuthorizationStore
    private let logger: Logger
    private let port = ListeningPort()

    /// - Parameters:
    ///   - clock: what codes and access tokens expire by.
    ///   - random: the source of codes, tokens and session cookies.
    public init(
        configuration: OAuthServerConfiguration,
        clock: any ExpiryClock = SystemExpiryClock(),
        random: any RandomSource = SystemRandomSource(),
        logger: Logger
    ) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        self.sessions = SignInSessions(users: configuration.users, random: random)
        self.store = AuthorizationStore(
            clock: clock,
            random: random,
            codeLifetime: .seconds(configuration.authorizationCodeLifetime),
            accessTokenLifetime: .seconds(configuration.accessTokenLifetime),
            rotation: configuration.refreshTokenRotation,
            graceTime: configuration.refreshTokenGraceSeconds.map { .seconds($0) }
        )
        self.logger = logger
    }

    /// The session cookie that signs `username` in at /authorize (the user's standing session, which the
    /// built-in partner handler uses); nil for a user not in the configuration, or once `POST /signout` ended it.
    public func sessionCredential(for username: String) -> SessionCredential? {
        sessions.credential(for: username)
    }

    /// A new session of `username`, beside the standing one, for a tool that ends one (`POST /signout`)
    /// without signing the built-in partner handler out; nil for a user not in the configuration.
    public func newSessionCredential(for username: String) -> SessionCredential? {
        sessions.newSession(for: username)
    }

    /// The bound port, once the server listens (the configured one, or the ephemeral one for port 0).
    /// Throws if the server failed to start or has stopped.
    public func listeningPort() async throws -> Int {
        try await port.wait()
    }

    /// The server's base URL, e.g. `http://127.0.0.1:8471`, once it listens.
    public func baseURL() async throws -> String {
        let port = try await listeningPort()
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)"
    }

    /// The step-3 code source for `username`: the same `AuthorizationEndpoint` as for a remote server,
    /// pointed at this server's /authorize with the user's session. Waits until the server listens.
    public func authorizationEndpoint(
        signedInAs username: String,
        httpClient: HTTPClient,
        timeout: Duration = .seconds(10),
        logger: Logger
    ) async throws -> AuthorizationEndpoint {
        guard let credential = sessionCredential(for: username) else {
            throw ConfigurationError("user \(username) is not in the OAuth server configuration")
        }
        return AuthorizationEndpoint(
            url: try await baseURL() + "/authorize",
            credential: credential,
            httpClient: httpClient,
            timeout: timeout,
            logger: logger
        )
    }

    /// Serves /authorize and /token on the configured loopback address until the service group stops.
    public func run() async throws {
        let application = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { [port, logger] channel in
                let bound = channel.localAddress?.port ?? 0
                logger.info("OAuth server listening", metadata: ["port": "\(bound)"])
                port.bound(bound)
            },
            logger: logger
        )
        do {
            try await application.run()
            port.failed("the OAuth server has stopped")
        } catch {
            port.failed("the OAuth server failed: \(error)")
            throw error
        }
    }

    private func makeRouter() -> Router<BasicRequestContext> {
        let clients = Dictionary(configuration.clients.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let authorize = AuthorizeHandler(clients: clients, sessions: sessions, store: store, logger: logger)
        let token = TokenHandler(clients: clients, store: store)
        let revocation = RevocationHandler(clients: clients, store: store)
        let router = Router()
        router.get("authorize") { [logger] request, _ in
            let outcome = authorize.respond(
                query: request.uri.query,
                sessionToken: request.cookies[SignInSessions.cookieName]?.value
            )
            return Self.response(for: outcome, logger: logger)
        }
        router.post("token") { [logger] request, _ in
            await Self.formEndpoint(request, name: "token", logger: logger, respond: token.respond)
        }
        router.post("revoke") { [logger] request, _ in
            await Self.formEndpoint(request, name: "revocation", logger: logger, respond: revocation.respond)
        }
        // Ends the session whose cookie the request carries; the codes and tokens it obtained live on.
        router.post("signout") { [sessions, logger] request, _ in
            let ended = request.cookies[SignInSessions.cookieName].map { sessions.end(token: $0.value) } ?? false
            logger.info("sign-out", metadata: ["ended": "\(ended)"])
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        router.get(".well-known/oauth-authorization-server") { _, _ in
            Self.jsonResponse(status: .ok, Self.metadata(issuer: try await self.baseURL(), configuration: self.configuration))
        }
        router.get("userinfo") { [store] request, _ in
            let parts = request.headers[.authorization]?.split(separator: " ", maxSplits: 1)
            // RFC 6750 §3.1: a request without a token gets the challenge alone, no error code.
            guard let parts, parts.count == 2, parts[0].lowercased() == "bearer" else {
                var response = Self.jsonResponse(status: .unauthorized, [:])
                response.headers[.wwwAuthenticate] = "Bearer realm=\"appflip-oauth\""
                return response
            }
            guard let grant = store.accessGrant(for: String(parts[1]))
            else {
                var response = Self.jsonResponse(
                    status: .unauthorized,
                    ["error": .string("invalid_token"), "error_description": .string("the access token is unknown, expired or revoked")]
                )
                response.headers[.wwwAuthenticate] = "Bearer error=\"invalid_token\""
                return response
            }
            return Self.jsonResponse(
                status: .ok,
                [
                    "sub": .string(grant.username), "client_id": .string(grant.clientID),
                    "scope": .string(grant.scopes.joined(separator: " ")),
                ]
            )
        }
        return router
    }

    /// A form-posting endpoint (/token, /revoke): the body read with its bound, the handler's reply as
    /// JSON, the Basic challenge on a 401 after a Basic attempt, one log line without any secret.
    private static func formEndpoint(
        _ request: Request,
        name: String,
        logger: Logger,
        respond: (_ contentType: String?, _ authorization: String?, _ body: String) -> TokenHandler.Reply
    ) async -> Response {
        let body: String
        do {
            body = String(buffer: try await request.body.collect(upTo: TokenHandler.maximumBodySize))
        } catch {
            logger.notice("\(name) request refused: body unreadable or over \(TokenHandler.maximumBodySize) bytes")
            return Self.jsonResponse(
                status: .badRequest,
                [
                    "error": .string("invalid_request"),
                    "error_description": .string("the body is unreadable or over \(TokenHandler.maximumBodySize) bytes"),
                ]
            )
        }
        let reply = respond(request.headers[.contentType], request.headers[.authorization], body)
        logger.info("\(name) request", metadata: ["status": "\(reply.status)", "outcome": "\(reply.summary)"])
        var response = Self.jsonResponse(status: .init(code: reply.status), reply.body)
        // RFC 9110 §15.5.2: every 401 carries a challenge, whatever the client tried (RFC 6749 §5.2: Basic).
        if reply.challengeBasic || reply.status == 401 {
            response.headers[.wwwAuthenticate] = "Basic realm=\"appflip-oauth\""
        }
        return response
    }

    /// The RFC 8414 authorization server metadata: every endpoint below `issuer`, and what they support.
    static func metadata(issuer: String, configuration: OAuthServerConfiguration) -> [String: TokenResponseValue] {
        var scopes: [String] = []
        for scope in configuration.clients.flatMap(\.scopes) where !scopes.contains(scope) { scopes.append(scope) }
        return [
            "issuer": .string(issuer),
            "authorization_endpoint": .string(issuer + "/authorize"),
            "token_endpoint": .string(issuer + "/token"),
            "revocation_endpoint": .string(issuer + "/revoke"),
            "userinfo_endpoint": .string(issuer + "/userinfo"),
            "response_types_supported": .strings(["code"]),
            "response_modes_supported": .strings(["query"]),
            "grant_types_supported": .strings(["authorization_code", "refresh_token"]),
            "code_challenge_methods_supported": .strings(["S256", "plain"]),
            "token_endpoint_auth_methods_supported": .strings(["client_secret_basic", "client_secret_post"]),
            "revocation_endpoint_auth_methods_supported": .strings(["client_secret_basic", "client_secret_post"]),
            "scopes_supported": .strings(scopes),
        ]
    }

    private static func response(for outcome: AuthorizeHandler.Outcome, logger: Logger) -> Response {
        switch outcome {
        case .errorPage(let reason):
            logger.notice("authorization request refused without redirect", metadata: ["reason": "\(reason)"])
            return page(status: .badRequest, title: "Invalid authorization request", message: reason)
        case .signInRequired:
            logger.notice("authorization request without a valid session: sign-in required")
            return page(status: .unauthorized, title: "Sign in required", message: "No user is signed in.")
        case .redirect(let location, let summary):
            switch summary {
            case .code(let clientID, let username, let fingerprint):
                logger.info(
                    "authorization code issued",
                    metadata: ["client_id": "\(clientID)", "user": "\(username)", "code": "sha256:\(fingerprint)"]
                )
            case .error(let error, let description):
                logger.notice(
                    "authorization error redirected",
                    metadata: ["error": "\(error.rawValue)", "error_description": "\(description)"]
                )
            }
            return Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
        }
    }

    /// A plain-text page: nothing from the request is echoed into it.
    private static func page(status: HTTPResponse.Status, title: String, message: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: "\(title)\n\n\(message)\n"))
        )
    }

    private static func jsonResponse(status: HTTPResponse.Status, _ body: [String: TokenResponseValue]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [
                .contentType: "application/json;charset=UTF-8", .cacheControl: "no-store", .init("Pragma")!: "no-cache",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
