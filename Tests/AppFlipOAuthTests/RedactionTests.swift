import AppFlipCore
import AppFlipGoogle
import AsyncHTTPClient
import Hummingbird
import Testing

@testable import AppFlipHTTPClient
@testable import AppFlipOAuth

@Suite struct RedactionTests {
    @Test("server text that echoes a secret is redacted before it reaches a reason")
    func echoedSecrets() async throws {
        let router = Router()
        router.post("echo-error") { request, _ in
            let body = String(buffer: try await request.body.collect(upTo: 4096))
            let form = try FormParameters(parsing: body)
            let echoed = "code \(form["code"] ?? "") secret \(form["client_secret"] ?? "")"
            return Response(
                status: .badRequest,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":"invalid_grant","error_description":"\#(echoed)"}"#))
            )
        }
        try await withApplication(router) { port in
            try await withHTTPClient { http in
                do throws(TokenEndpointFailure) {
                    _ = try await TokenEndpointClientTests.client("http://localhost:\(port)/echo-error", http)
                        .exchange(code: "the-secret-code", redirectURI: "r")
                    Issue.record("expected an error")
                } catch {
                    #expect(!error.description.contains("the-secret-code"))
                    #expect(!error.description.contains("s3cret"))
                    #expect(error.description.contains("sha256:\(Fingerprint.of("the-secret-code"))"))
                }
            }
        }
        let failure = #expect(throws: AuthorizationFailure.self) {
            try AuthorizationEndpoint.code(
                from: "https://x/a?error=access_denied&error_description=session+sid-value-1+refused&state=s",
                redirectURI: "https://x/a",
                state: "s",
                secrets: SessionCredential.cookie("sid=sid-value-1").secrets
            )
        }
        #expect(failure?.reason.contains("sid-value-1") == false)
    }
}
