import AppFlipCore
import AppFlipTesting
import AsyncHTTPClient
import Hummingbird
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import AppFlipHTTPClient
@testable import AppFlipOAuth

/// The remote authorization endpoint caller against small real loopback servers that answer badly.
@Suite struct AuthorizationEndpointTests {
    static let redirectURI = appFlipRedirectURIs[9]
    static let request = AuthorizationRequest(clientID: "partner-client", redirectURI: redirectURI, scopes: ["profile"])

    /// A server with one route per way to answer an authorization request.
    static func misbehavingRouter() -> Router<BasicRequestContext> {
        let router = Router()
        @Sendable func redirect(_ request: Request, _ query: (_ state: String) -> String) -> Response {
            let parameters = request.uri.queryParameters
            let redirectURI = parameters["redirect_uri"].map(String.init) ?? ""
            let state = parameters["state"].map(String.init) ?? ""
            return Response(status: .found, headers: [.location: redirectURI + "?" + query(state)])
        }
        router.get("ok") { request, _ in redirect(request) { "code=the-code&state=\($0)" } }
        router.get("see-other") { request, _ in
            var response = redirect(request) { "state=\($0)&code=other-code" }
            response.status = .seeOther
            return response
        }
        router.get("login-page") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<form>"))) }
        router.get("unauthorized") { _, _ in Response(status: .unauthorized) }
        router.get("bad-request") { _, _ in Response(status: .badRequest) }
        router.get("server-error") { _, _ in Response(status: .serviceUnavailable) }
        router.get("elsewhere") { _, _ in
            Response(status: .found, headers: [.location: "https://evil.example/steal?code=the-code&state=x"])
        }
        router.get("login-redirect") { _, _ in
            Response(status: .found, headers: [.location: "/accounts/login/?next=/o/authorize/"])
        }
        router.get("lookalike") { request, _ in
            let redirectURI = request.uri.queryParameters["redirect_uri"].map(String.init) ?? ""
            return Response(status: .found, headers: [.location: redirectURI + ".evil?code=c&state=s"])
        }
        router.get("fragment") { request, _ in redirect(request) { "code=c&state=\($0)#frag" } }
        router.get("no-location") { _, _ in Response(status: .found) }
        router.get("no-code") { request, _ in redirect(request) { "state=\($0)" } }
        router.get("empty-code") { request, _ in redirect(request) { "code=&state=\($0)" } }
        router.get("no-state") { request, _ in redirect(request) { _ in "code=the-code" } }
        router.get("wrong-state") { request, _ in redirect(request) { _ in "code=the-code&state=forged" } }
        router.get("repeated-code") { request, _ in redirect(request) { "code=a&code=b&state=\($0)" } }
        router.get("malformed") { request, _ in redirect(request) { "code=%zz&state=\($0)" } }
        router.get("denied") { request, _ in
            redirect(request) { "error=access_denied&error_description=account+disabled&state=\($0)" }
        }
        router.get("unavailable") { request, _ in redirect(request) { "error=temporarily_unavailable&state=\($0)" } }
        router.get("slow") { _, _ in
            // Long past every caller's timeout, short enough for the server's graceful shutdown to wait for.
            try await Task.sleep(for: .seconds(2))
            return Response(status: .ok)
        }
        router.get("credentials") { request, _ in
            let presented = [
                request.headers[.init("X-Session")!], request.headers[.cookie], request.headers[.authorization],
            ]
            guard presented.contains(where: { ["v-1", "sid=v-1", "Bearer v-1"].contains($0) }) else {
                return Response(status: .unauthorized)
            }
            return redirect(request) { "code=the-code&state=\($0)" }
        }
        return router
    }

    static func call(
        _ url: String,
        credential: SessionCredential? = nil,
        timeout: Duration = .seconds(5),
        connectTimeout: Duration = .seconds(2)
    ) async throws -> Result<String, AuthorizationFailure> {
        try await withHTTPClient(connectTimeout: connectTimeout) { client in
            let endpoint = AuthorizationEndpoint(
                url: url,
                credential: credential,
                httpClient: client,
                timeout: timeout,
                logger: testLogger
            )
            do throws(AuthorizationFailure) {
                return .success(try await endpoint.authorizationCode(for: request))
            } catch {
                return .failure(error)
            }
        }
    }

    @Test("a 302 (or 303) to the exact redirect_uri with the sent state yields the code")
    func success() async throws {
        try await withApplication(Self.misbehavingRouter()) { port in
            let found = try await Self.call("http://localhost:\(port)/ok")
            #expect(found == .success("the-code"))
            let seeOther = try await Self.call("http://localhost:\(port)/see-other")
            #expect(seeOther == .success("other-code"))
        }
    }

    // One server at a time: the arguments in parallel stood up a server and a client each at once.
    @Test(
        "each bad answer maps to the documented App Flip error with an exact reason",
        .serialized,
        arguments: [
            ("login-page", FlipErrorCode.cancelled, "HTTP 200 instead of a redirect"),
            ("unauthorized", .cancelled, "HTTP 401 instead of a redirect: the user is not signed in"),
            ("bad-request", .cancelled, "HTTP 400 instead of a redirect: the endpoint refused the request"),
            ("server-error", .cancelled, "HTTP 503 instead of a redirect: the authorization server failed"),
            ("elsewhere", .cancelled, "redirected to https://evil.example/steal instead of the redirect_uri"),
            ("login-redirect", .cancelled, "redirected to /accounts/login/ instead of the redirect_uri"),
            ("lookalike", .cancelled, "instead of the redirect_uri"),
            ("fragment", .cancelled, "instead of the redirect_uri"),
            ("no-location", .cancelled, "HTTP 302 without a Location header"),
            ("no-code", .unrecoverable, "the redirect carries neither code nor error"),
            ("empty-code", .unrecoverable, "the redirect carries neither code nor error"),
            ("no-state", .unrecoverable, "the redirect carries no state"),
            ("wrong-state", .unrecoverable, "the redirect's state is not the state that was sent"),
            ("repeated-code", .unrecoverable, "the redirect repeats code"),
            ("malformed", .unrecoverable, "the redirect's query is malformed"),
            ("denied", .unrecoverable, "the endpoint answered error=access_denied: account disabled"),
            ("unavailable", .cancelled, "the endpoint answered error=temporarily_unavailable"),
            ("credentials", .cancelled, "HTTP 401"),
        ]
    )
    func badAnswers(route: String, flipError: FlipErrorCode, reason: String) async throws {
        try await withApplication(Self.misbehavingRouter()) { port in
            let result = try await Self.call("http://localhost:\(port)/\(route)")
            guard case .failure(let failure) = result else {
                Issue.record("expected a failure, got \(result)")
                return
            }
            #expect(failure.flipError == flipError)
            #expect(failure.reason.contains(reason), "\(failure.reason)")
            #expect(!failure.reason.contains("the-code"))
        }
    }

    @Test("session credentials are sent as a header, a cookie or a bearer token")
    func credentials() async throws {
        try await withApplication(Self.misbehavingRouter()) { port in
            let url = "http://localhost:\(port)/credentials"
            for credential in [SessionCredential.header(name: "X-Session", value: "v-1"), .cookie("sid=v-1"), .bearer("v-1")] {
                let result = try await Self.call(url, credential: credential)
                #expect(result == .success("the-code"))
                #expect(!"\(credential)".contains("v-1"))
            }
            let refused = try await Self.call(url, credential: .bearer("v-2"))
            #expect(refused.failure?.flipError == .cancelled)
        }
    }

    @Test("connection refused is cancelled")
    func connectionRefused() async throws {
        let refusing = try RefusingPort()
        let failure = try #require(try await Self.call("http://127.0.0.1:\(refusing.port)/ok").failure)
        withExtendedLifetime(refusing) {}
        #expect(failure.flipError == .cancelled)
        #expect(failure.reason.contains("refused"), "\(failure.reason)")
    }

    @Test("a TLS error (https to a plain-HTTP port) is cancelled, after one attempt")
    func tlsError() async throws {
        // A server that answers the ClientHello in plain HTTP, so that the handshake fails at once, and
        // appflip's client, which reports the first failed attempt instead of trying again until its connect
        // timeout: the result does not depend on the machine's speed, and the server sees one connection.
        // (Against Hummingbird, which never answers a ClientHello, the test ended in the 2 s connect timeout,
        // which under ThreadSanitizer on a loaded machine fired before any attempt had finished.) The limits
        // only bound a hang: a client that tried again would be reported by the count, not by the clock.
        try await withPlainHTTPAnswer { port, connections in
            let url = "https://127.0.0.1:\(port)/ok"
            let failure = try #require(try await Self.call(url, timeout: .seconds(3), connectTimeout: .seconds(60)).failure)
            #expect(failure.flipError == .cancelled)
            #expect(failure.reason.contains("TLS with https://127.0.0.1:\(port)/ok failed (is it really https?)"), "\(failure.reason)")
            #expect(connections.value == 1)
        }
    }

    /// Runs `body` with the port of a TCP server that answers whatever arrives with an HTTP 400, and the
    /// number of connections it has accepted.
    /// Raw NIO: it answers a TLS ClientHello with plain HTTP, which Hummingbird never does.
    private func withPlainHTTPAnswer(_ body: (Int, AcceptedConnections) async throws -> Void) async throws {
        let connections = AcceptedConnections()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                connections.add()
                return channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(PlainHTTPAnswer()) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        do {
            try await body(server.localAddress!.port!, connections)
        } catch {
            try await server.close()
            throw error
        }
        try await server.close()
    }

    @Test("no answer within the timeout is cancelled")
    func timeout() async throws {
        try await withApplication(Self.misbehavingRouter()) { port in
            let failure = try #require(
                try await Self.call("http://localhost:\(port)/slow", timeout: .milliseconds(300)).failure
            )
            #expect(failure.flipError == .cancelled)
            #expect(failure.reason.contains("/slow did not answer within 0.3 s"), "\(failure.reason)")
        }
    }

    @Test("the request carries response_type, client_id, redirect_uri, scope and a fresh state")
    func requestParameters() async throws {
        let router = Router()
        router.get("echo") { request, _ in
            let query = request.uri.query ?? ""
            let parameters = try FormParameters(parsing: query)
            let names = parameters.pairs.map(\.name).joined(separator: ",")
            let redirectURI = parameters["redirect_uri"] ?? ""
            var response = FormParameters()
            response.append("code", "\(names)|\(parameters["response_type"] ?? "")|\(parameters["client_id"] ?? "")|\(parameters["scope"] ?? "")")
            response.append("state", parameters["state"] ?? "")
            return Response(status: .found, headers: [.location: redirectURI + "?" + response.encoded])
        }
        try await withApplication(router) { port in
            let code = try await Self.call("http://localhost:\(port)/echo").get()
            #expect(code == "response_type,client_id,redirect_uri,scope,state|code|partner-client|profile")
        }
    }

    @Test("every state is fresh")
    func freshState() async throws {
        let random = CountingRandom()
        let first = Base64URL.encode(random.bytes(16))
        let second = Base64URL.encode(random.bytes(16))
        #expect(first != second)
        #expect(throws: AuthorizationFailure.self) {
            try AuthorizationEndpoint.code(from: "\(Self.redirectURI)?code=c&state=\(first)", redirectURI: Self.redirectURI, state: second)
        }
        #expect(try AuthorizationEndpoint.code(from: "\(Self.redirectURI)?code=c&state=\(first)", redirectURI: Self.redirectURI, state: first) == "c")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

/// Answers each read with an HTTP 400, as a plain-HTTP server answers bytes it cannot parse.
/// How many connections a test server has accepted.
private final class AcceptedConnections: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func add() { count.withLock { $0 += 1 } }
}

private final class PlainHTTPAnswer: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let answer = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: answer)), promise: nil)
    }
}
