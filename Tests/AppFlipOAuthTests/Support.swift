import AppFlipConfiguration
import AppFlipCore
import AppFlipHTTPClient
import AsyncHTTPClient
import FoundationEssentials
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization
import Testing

@testable import AppFlipOAuth

/// The 12 App Flip redirect URIs, from the core's allowlist.
let appFlipRedirectURIs = AppFlipRedirectURI.all.map(\.string)

let testLogger: Logger = {
    var logger = Logger(label: "appflip-oauth-tests")
    logger.logLevel = .critical
    return logger
}()

/// The 12 App Flip URIs plus the two web redirect URIs of project `appflip-test`.
let webRedirectURIs = [
    "https://oauth-redirect.googleusercontent.com/r/appflip-test",
    "https://oauth-redirect-sandbox.googleusercontent.com/r/appflip-test",
]

let testClient = RegisteredClient(
    id: "partner-client",
    secret: "partner-secret-0123456789",
    redirectURIs: appFlipRedirectURIs + webRedirectURIs,
    scopes: ["profile", "devices"]
)

let otherClient = RegisteredClient(
    id: "other-client",
    secret: "other-secret-0123456789abc",
    redirectURIs: [appFlipRedirectURIs[0]],
    scopes: ["profile"]
)

func testConfiguration(
    codeLifetime: Int = 60,
    rotation: RefreshTokenRotation = .grace,
    graceSeconds: Int? = nil
) -> OAuthServerConfiguration {
    OAuthServerConfiguration(
        port: 0,
        authorizationCodeLifetime: codeLifetime,
        accessTokenLifetime: 3600,
        refreshTokenRotation: rotation,
        refreshTokenGraceSeconds: graceSeconds,
        clients: [testClient, otherClient],
        users: [TestUser(username: "alice"), TestUser(username: "dave", disabled: true)]
    )
}

/// A client configured as appflip's are (`HTTPClient.Configuration.appFlipOAuth`), shut down after `body`.
func withHTTPClient<T>(
    connectTimeout: Duration = .seconds(2),
    _ body: (HTTPClient) async throws -> T
) async throws -> T {
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth(connectTimeout: connectTimeout))
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try await client.shutdown()
        throw error
    }
}

/// Runs `service` while `body` runs, waiting (bounded) for `ready` first, then stops it gracefully.
///
/// Never by cancelling its task: a server cancelled while it accepts a connection drops that connection's
/// `NIOAsyncChannel` unfinished and traps (apple/swift-nio#3481, #2813); a graceful shutdown closes it.
func whileRunning<T: Sendable>(
    _ service: some Service,
    ready: @escaping @Sendable () async throws -> Int,
    body: @escaping @Sendable (Int) async throws -> T
) async throws -> T {
    let services = ServiceGroup(configuration: .init(services: [service], logger: testLogger))
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            try await services.run()
            return nil
        }
        let port = try await withThrowingTaskGroup(of: Int?.self) { race in
            race.addTask { try await ready() }
            race.addTask {
                try await Task.sleep(for: .seconds(20))
                return nil
            }
            let first = try await race.next()!
            race.cancelAll()
            return first
        }
        let outcome: Result<T, any Error>
        if let port {
            do {
                outcome = .success(try await body(port))
            } catch {
                outcome = .failure(error)
            }
        } else {
            outcome = .failure(TestFailure("the server did not start listening within 20 s"))
        }
        await services.triggerGracefulShutdown()
        while (try? await group.next()) != nil {}
        return try outcome.get()
    }
}

/// Runs an embedded server on an ephemeral port for the duration of `body`.
func withEmbeddedServer<T: Sendable>(
    _ configuration: OAuthServerConfiguration = testConfiguration(),
    clock: ManualClock = ManualClock(),
    _ body: @escaping @Sendable (EmbeddedAuthorizationServer, String) async throws -> T
) async throws -> T {
    let server = try EmbeddedAuthorizationServer(
        configuration: configuration,
        clock: clock,
        random: SystemRandomSource(),
        logger: testLogger
    )
    return try await whileRunning(
        server,
        ready: { try await server.listeningPort() },
        body: { port in try await body(server, "http://127.0.0.1:\(port)") }
    )
}

/// Runs a plain Hummingbird app (for misbehaving servers) on an ephemeral `localhost` port for the duration
/// of `body`. The clients under test connect over a socket, so HummingbirdTesting's `.live` setup, which
/// stops the server gracefully.
func withApplication<T: Sendable>(
    _ router: Router<BasicRequestContext>,
    _ body: @escaping @Sendable (Int) async throws -> T
) async throws -> T {
    try await Application(router: router, logger: testLogger).test(.live) { client in
        try await body(try #require(client.port))
    }
}

func get(_ url: String, cookie: String? = nil, with client: HTTPClient) async throws -> RawResponse {
    var request = HTTPClientRequest(url: url)
    if let cookie { request.headers.add(name: "Cookie", value: cookie) }
    return try await send(request, with: client)
}

func postForm(
    _ url: String,
    _ form: [(String, String)],
    basic: (String, String)? = nil,
    contentType: String = "application/x-www-form-urlencoded",
    with client: HTTPClient
) async throws -> RawResponse {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: contentType)
    if let (id, secret) = basic {
        let pair = Array("\(PercentEncoding.encodeStrictly(id)):\(PercentEncoding.encodeStrictly(secret))".utf8)
        request.headers.add(name: "Authorization", value: "Basic \(Data(pair).base64EncodedString())")
    }
    request.body = .bytes(ByteBuffer(string: FormParameters(form.map { (name: $0.0, value: $0.1) }).encoded))
    return try await send(request, with: client)
}

func send(_ request: HTTPClientRequest, with client: HTTPClient) async throws -> RawResponse {
    let response = try await client.execute(request, timeout: .seconds(10))
    let body = try await response.body.collect(upTo: 1 << 20)
    return RawResponse(status: Int(response.status.code), headers: response.headers, body: String(buffer: body))
}

/// The parameters of a redirect Location's query.
func queryParameters(of location: String) throws -> FormParameters {
    guard let question = location.firstIndex(of: "?") else { return FormParameters() }
    return try FormParameters(parsing: location[location.index(after: question)...])
}
