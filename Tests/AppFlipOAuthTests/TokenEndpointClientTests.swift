import AppFlipCore
import AppFlipGoogle
import AppFlipTesting
import AsyncHTTPClient
import Hummingbird
import Testing

@testable import AppFlipOAuth

/// Google's token exchange against token endpoints that break account-linking rules.
@Suite struct TokenEndpointClientTests {
    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        @Sendable func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
            Response(
                status: status,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: body))
            )
        }
        router.post("jwt") { _, _ in
            json(.ok, #"{"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln","token_type":"Bearer","expires_in":3600,"refresh_token":"r"}"#)
        }
        router.post("no-refresh") { _, _ in
            json(.ok, #"{"access_token":"opaque","token_type":"bearer","expires_in":3600}"#)
        }
        router.post("no-expiry") { _, _ in
            json(.ok, #"{"access_token":"opaque","token_type":"mac","refresh_token":"r"}"#)
        }
        router.post("not-json") { _, _ in json(.ok, "<html>") }
        router.post("error") { _, _ in json(.badRequest, #"{"error":"invalid_grant","error_description":"nope"}"#) }
        router.post("bare-500") { _, _ in Response(status: .internalServerError) }
        router.post("echo") { request, _ in
            let body = String(buffer: try await request.body.collect(upTo: 4096))
            let form = try FormParameters(parsing: body)
            let names = form.pairs.map(\.name).joined(separator: ",")
            let basic = request.headers[.authorization] ?? "none"
            return json(
                .ok,
                #"{"access_token":"\#(names)","token_type":"Bearer","expires_in":1,"refresh_token":"\#(basic)","scope":"\#(form["redirect_uri"] ?? "")"}"#
            )
        }
        return router
    }

    static func client(
        _ url: String,
        _ http: HTTPClient,
        _ authentication: ClientAuthMethod = .post
    )
        -> TokenEndpointClient
    {
        TokenEndpointClient(
            tokenURL: url,
            clientID: "c",
            clientSecret: "s3cret",
            authentication: authentication,
            httpClient: http,
            logger: testLogger
        )
    }

    @Test("Google's account-linking rules are checked in the report")
    func violations() async throws {
        try await withApplication(Self.router()) { port in
            try await withHTTPClient { http in
                let base = "http://localhost:\(port)"
                let jwt = try await Self.client("\(base)/jwt", http).exchange(code: "c", redirectURI: "r").report
                #expect(jwt.accessTokenFormat == .jwt)
                #expect(jwt.violations == ["the access token is a JWT; Google expects an opaque token"])
                let noRefresh = try await Self.client("\(base)/no-refresh", http).exchange(code: "c", redirectURI: "r").report
                #expect(noRefresh.violations == ["no refresh token was issued with an expiring access token"])
                let noExpiry = try await Self.client("\(base)/no-expiry", http).exchange(code: "c", redirectURI: "r").report
                #expect(noExpiry.violations == ["token_type is mac, not Bearer", "expires_in is missing"])
            }
        }
    }

    @Test("errors say what the endpoint answered")
    func errors() async throws {
        let refusing = try RefusingPort()
        try await withApplication(Self.router()) { port in
            try await withHTTPClient { http in
                let base = "http://localhost:\(port)"
                await #expect(throws: TokenEndpointFailure.malformedResponse("HTTP 200 without a JSON body holding access_token and token_type")) {
                    try await Self.client("\(base)/not-json", http).exchange(code: "c", redirectURI: "r")
                }
                await #expect(throws: TokenEndpointFailure.endpoint(status: 400, error: "invalid_grant", description: "nope")) {
                    try await Self.client("\(base)/error", http).exchange(code: "c", redirectURI: "r")
                }
                await #expect(throws: TokenEndpointFailure.endpoint(status: 500, error: nil, description: nil)) {
                    try await Self.client("\(base)/bare-500", http).refresh(refreshToken: "r")
                }
                do throws(TokenEndpointFailure) {
                    _ = try await Self.client("http://127.0.0.1:\(refusing.port)/token", http).exchange(code: "c", redirectURI: "r")
                    Issue.record("expected a transport error")
                } catch {
                    guard case .transport(let reason) = error else {
                        Issue.record("expected a transport error, got \(error)")
                        return
                    }
                    #expect(reason.contains("refused"))
                }
            }
        }
        withExtendedLifetime(refusing) {}
    }

    @Test("the request carries the grant, the identical redirect_uri and exactly one client authentication")
    func requestShape() async throws {
        try await withApplication(Self.router()) { port in
            try await withHTTPClient { http in
                let url = "http://localhost:\(port)/echo"
                let redirectURI = appFlipRedirectURIs[2]
                let post = try await Self.client(url, http).exchange(code: "c", redirectURI: redirectURI, codeVerifier: "v")
                #expect(post.accessToken == "grant_type,code,redirect_uri,code_verifier,client_id,client_secret")
                #expect(post.refreshToken == "none")
                #expect(post.scope == redirectURI)
                let basic = try await Self.client(url, http, .basic).refresh(refreshToken: "r", scopes: ["a", "b"])
                #expect(basic.accessToken == "grant_type,refresh_token,scope")
                #expect(basic.refreshToken == "Basic YzpzM2NyZXQ=")
            }
        }
    }
}
